import type Docker from 'dockerode';

/**
 * The network of an evaluation container (docs/reference/containers.md, "No network"): none
 * unless the caller names one. The tests run offline once the image is built, as in the SWE-bench
 * harness; a container on the default bridge could reach the host (its gateway) and every
 * service the host reaches, so a file in the work tree could send the hidden tests out.
 */
export const EVALUATION_NETWORK_DEFAULT = 'none';

/** The setting that opens a network to every evaluation of a process (`--network` of eval and batch sets it). */
export const EVALUATION_NETWORK_ENV = 'CHAINLENS_EVAL_NETWORK';

/**
 * Docker's NetworkMode for an evaluation: `network` when the caller names one, else the
 * CHAINLENS_EVAL_NETWORK setting, else `none`. A name is `bridge`, `host` or a network's name.
 */
export function evaluationNetwork(network: string | undefined): string {
  return network || process.env[EVALUATION_NETWORK_ENV] || EVALUATION_NETWORK_DEFAULT;
}

/** Why `mode` cannot name a Docker network, or null. */
export function networkModeProblem(mode: string): string | null {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(mode)
    ? null
    : `'${mode}' is not a Docker network (none, bridge, host, or a network's name)`;
}

/** HostConfig of a local evaluation container: its network and, when given, its memory limit. */
export function evaluationHostConfig(o: { memoryLimitBytes?: number; network?: string }): Docker.HostConfig {
  return {
    NetworkMode: evaluationNetwork(o.network),
    ...(o.memoryLimitBytes ? { Memory: o.memoryLimitBytes, MemorySwap: o.memoryLimitBytes } : {}),
  };
}
