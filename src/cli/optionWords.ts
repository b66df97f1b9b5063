// How the CLI names the inputs an error below it is about (core/util/errors.ts OptionError): by
// the flag a person typed.
import type { OptionError, OptionName } from '../core/util/errors';

const FLAGS: Record<OptionName, string> = {
  agent: '--agent',
  agentName: '--agent-name',
  allowEmpty: '--allow-empty',
  base: '--base',
  chainId: '--chain-id',
  condition: '--condition',
  dir: '--dir',
  engine: '--engine',
  image: '--image',
  instances: '--instances',
  mode: '--mode',
  out: '--out',
  predictions: '--predictions',
  repeats: '--repeats',
  repo: '--repo',
  repoPathInImage: '--repo-path-in-image',
  split: '--split',
  step: '--step',
};

/** The error as the CLI prints it: `--repo: no repository for …`. */
export function cliOptionMessage(e: OptionError): string {
  return `${FLAGS[e.option]}: ${e.message}`;
}
