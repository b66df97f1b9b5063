import type { BatchRecord } from '../../protocol/batch';

/**
 * Why a record leaves every denominator of `chainlens report` (docs/reference/metrics.md,
 * "Denominators"). Only failures ChainLens can show are not the solver's leave: the image was
 * missing, the engine was gone, the container itself failed, or the lane could not be set up
 * from the dataset (a gold patch that does not apply, a base commit the repository lacks), all
 * before or beside the solver's code. Anything the solver's code could have caused (a patch that
 * does not apply, a suite it left uncollectable, a timeout while its tests ran) stays in, as
 * unresolved: the SWE-bench harness keeps such instances in its denominator as well.
 */
export type ExclusionReason = 'image missing' | 'engine gone' | 'container failed' | 'lane not set up' | 'cancelled';

const IMAGE_MISSING =
  /No such image|image .* (not found|is not available|unavailable)|pull access denied|manifest unknown/i;
const ENGINE_GONE =
  /Cannot reach the Docker engine|Docker engine error|connect ENOENT|ECONNREFUSED|docker\.sock|engine not reachable|Error response from daemon/i;
/**
 * What a log without any test said before no-tests-ran became the code's error: records written
 * then carry `infra_failure: true` for a suite the solver's patch left uncollectable.
 */
const NO_TESTS_RAN = 'no test results in the log and no sign that a test suite ran';

export function exclusionReason(r: BatchRecord): ExclusionReason | null {
  if (r.error_kind === 'cancelled') return 'cancelled';
  if (!r.infra_failure) return null;
  const error = r.error ?? '';
  if (error === NO_TESTS_RAN) return null;
  if (IMAGE_MISSING.test(error)) return 'image missing';
  if (ENGINE_GONE.test(error)) return 'engine gone';
  // failedRecord (app/batch/runBatch.ts): the lane's work tree could not be made; no container ran.
  if (r.log === '' && r.duration_s === 0) return 'lane not set up';
  return 'container failed';
}

/** Records with a verdict: every record but those a reason takes out. */
export const hasVerdict = (r: BatchRecord): boolean => exclusionReason(r) === null;

export interface ExclusionCount {
  readonly reason: ExclusionReason;
  readonly count: number;
  /** One error text of this reason, for the report (the records hold the rest). */
  readonly example: string;
}

export function exclusionCounts(records: readonly BatchRecord[]): ExclusionCount[] {
  const by = new Map<ExclusionReason, { count: number; example: string }>();
  for (const r of records) {
    const reason = exclusionReason(r);
    if (!reason) continue;
    const e = by.get(reason) ?? { count: 0, example: r.error ?? '' };
    by.set(reason, { ...e, count: e.count + 1 });
  }
  return [...by.entries()]
    .map(([reason, e]) => ({ reason, ...e }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}
