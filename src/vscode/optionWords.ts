// How VS Code names the inputs an error below it is about (core/util/errors.ts OptionError): by
// the setting or the pick a person answered, never by a CLI flag.
import type { OptionError, OptionName } from '../core/util/errors';

const WORDS: Record<OptionName, string> = {
  agent: 'Agent',
  agentName: 'Agent name',
  allowEmpty: 'Submit empty',
  base: 'Base commit',
  chainId: 'Chain',
  condition: 'Condition',
  dir: 'Work folder',
  engine: 'Engine',
  image: 'Image (the chainlens.image setting)',
  instances: 'Instances',
  mode: 'Mode',
  out: 'Output folder',
  predictions: 'Predictions',
  repeats: 'Repeats',
  repo: 'Repository',
  repoPathInImage: 'Repository path in the image (the chainlens.repoPathInImage setting)',
  split: 'Split',
  step: 'Step',
};

/** The error as a VS Code notification says it: `Repository: no repository for …`. */
export function vscodeOptionMessage(e: OptionError): string {
  return `${WORDS[e.option]}: ${e.message}`;
}
