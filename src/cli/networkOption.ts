// `--network <mode>` of eval and batch (docs/reference/containers.md, "No network"): evaluation
// containers have none unless this (or CHAINLENS_EVAL_NETWORK) names one, for a dataset whose
// tests need it. Set for the whole process: every container of the command uses it.
import { UserError } from '../core/util/errors';
import { EVALUATION_NETWORK_ENV, networkModeProblem } from '../infra/docker/network';

export const NETWORK_USAGE = `--network <mode>  the network of the evaluation containers: none (the default: the tests run
                  offline, as in the SWE-bench harness), bridge (Docker's default: the host and
                  everything it reaches, so a file in the work tree can send the hidden tests out),
                  host, or a network's name. Also the setting CHAINLENS_EVAL_NETWORK.`;

export function applyNetworkOption(value: string | undefined, usage: string): void {
  if (value === undefined) return;
  const problem = networkModeProblem(value);
  if (problem) throw new UserError(`--network: ${problem}\n\n${usage}`, 'usage');
  process.env[EVALUATION_NETWORK_ENV] = value;
}
