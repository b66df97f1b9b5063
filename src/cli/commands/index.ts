// Every CLI subcommand, in the order `chainlens --help` lists them.
// Add one import and one array entry per command.
import type { CliCommand } from '../command';
import { gradeCommand } from './grade';

export const commands: CliCommand[] = [
  gradeCommand,
];
