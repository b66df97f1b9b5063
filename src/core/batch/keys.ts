import type { BatchMode } from '../../protocol/batch';

/** One (chain, source, mode): the steps of one chain solved by one source in one mode. */
export interface LaneKey {
  readonly chainId: string;
  readonly source: string;
  readonly mode: BatchMode;
}

export interface StepKey extends LaneKey {
  readonly order: number;
}

/**
 * A chain id as one path segment: every character outside [A-Za-z0-9-] (and a leading dot) is
 * written `_xx` (its UTF-16 code in hex, `_` itself included), so two ids never share a folder and
 * no id can climb out of the run directory.
 */
export function pathSegment(id: string): string {
  let out = '';
  for (let i = 0; i < id.length; i++) {
    const ch = id[i];
    const safe = /[A-Za-z0-9-]/.test(ch) || (ch === '.' && i > 0);
    out += safe ? ch : `_${id.charCodeAt(i).toString(16).padStart(2, '0')}`;
  }
  return out || '_';
}

export function laneId(k: LaneKey): string {
  return `${pathSegment(k.chainId)}/${k.source}/${k.mode}`;
}

export function stepId(k: StepKey): string {
  return `${laneId(k)}/step-${k.order}`;
}

/** Where a step's record lives, relative to the run directory. */
export function recordPath(k: StepKey): string {
  return `records/${stepId(k)}.json`;
}

/** Where a step's log is kept, relative to the run directory; `run` 2.. for `--repeats`' further runs. */
export function logPath(k: StepKey, run = 1): string {
  return `logs/${stepId(k)}${run > 1 ? `.run-${run}` : ''}.log`;
}
