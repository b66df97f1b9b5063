import type { FilterOutcome } from '../../protocol/codethread';

interface Bucket {
  readonly success: readonly string[];
  readonly failure: readonly string[];
}

/**
 * CodeThread's PR1 filter over a graded step (docs/reference/codethread.md): PR1 restored the
 * original functionality (every PASS_TO_PASS test passes) and did not already solve the follow-on
 * issue (every FAIL_TO_PASS test still fails). A test the log does not name counts as not
 * passing, as the harness grades it.
 */
export function pr1Filter(tests: { FAIL_TO_PASS: Bucket; PASS_TO_PASS: Bucket }): FilterOutcome {
  const p2pFailing = [...tests.PASS_TO_PASS.failure];
  const f2pPassing = [...tests.FAIL_TO_PASS.success];
  return {
    passed: p2pFailing.length === 0 && f2pPassing.length === 0,
    p2p_failing: p2pFailing,
    f2p_passing: f2pPassing,
  };
}

/** One line for a person: "filter passed", or "filter failed" with the offending tests. */
export function describeFilter(outcome: FilterOutcome, limit = 5): string {
  if (outcome.passed) return 'filter passed';
  const list = (ids: readonly string[]) =>
    ids.slice(0, limit).join(', ') + (ids.length > limit ? `, … (${ids.length} in all)` : '');
  const parts: string[] = [];
  if (outcome.p2p_failing.length) parts.push(`P2P not passing: ${list(outcome.p2p_failing)}`);
  if (outcome.f2p_passing.length) parts.push(`F2P already passing: ${list(outcome.f2p_passing)}`);
  return `filter failed (${parts.join('; ')})`;
}
