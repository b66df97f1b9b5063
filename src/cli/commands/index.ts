// Every CLI subcommand, in the order `chainlens --help` lists them.
// Add one import and one array entry per command.
import type { CliCommand } from '../command';
import { analyzeCommand } from './analyze';
import { labelsCommand } from './labels';
import { validateCommand } from './validate';
import { checkoutCommand } from './checkout';
import { statusCommand } from './status';
import { submitCommand } from './submit';
import { replayCommand } from './replay';
import { evalCommand } from './eval';
import { compareCommand } from './compare';
import { gradeCommand } from './grade';
import { trajectoryCommand } from './trajectory';

export const commands: CliCommand[] = [
  validateCommand,
  checkoutCommand,
  statusCommand,
  submitCommand,
  replayCommand,
  evalCommand,
  compareCommand,
  gradeCommand,
  analyzeCommand,
  labelsCommand,
  trajectoryCommand,
];
