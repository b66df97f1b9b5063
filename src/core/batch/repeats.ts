// A step evaluated several times on the same commit (`chainlens batch --repeats N`,
// docs/reference/metrics.md "Flaky tests"). ChainSWE reads one Oracle pass against one Seq fail as a
// chain error; that reading holds only if both verdicts are stable. A test whose result differs
// between identical runs is flaky, and every verdict resting on it is marked.
import type { BatchRecord, BatchRepeats } from '../../protocol/batch';
import type { TestBucket } from '../../protocol/grading';

/** The graded tests of one run: FAIL_TO_PASS and PASS_TO_PASS, each split into passed and failed. */
export interface RunTests {
  readonly resolved: boolean;
  readonly tests: { readonly FAIL_TO_PASS: TestBucket; readonly PASS_TO_PASS: TestBucket };
}

/** The repeats summary of runs that each gave a verdict (the first one is the record's own). */
export function summarizeRepeats(runs: readonly RunTests[]): BatchRepeats {
  const passed = new Map<string, Set<boolean>>();
  for (const run of runs)
    for (const bucket of [run.tests.FAIL_TO_PASS, run.tests.PASS_TO_PASS]) {
      for (const id of bucket.success) outcomes(passed, id).add(true);
      for (const id of bucket.failure) outcomes(passed, id).add(false);
    }
  return {
    runs: runs.length,
    resolved: runs.filter((r) => r.resolved).length,
    flaky_tests: [...passed].filter(([, seen]) => seen.size > 1).map(([id]) => id),
  };
}

function outcomes(map: Map<string, Set<boolean>>, id: string): Set<boolean> {
  let seen = map.get(id);
  if (!seen) map.set(id, (seen = new Set()));
  return seen;
}

/** The record's verdict did not hold in every run: some runs resolved, some did not. */
export function verdictUnstable(r: Pick<BatchRecord, 'repeats'>): boolean {
  return r.repeats !== undefined && r.repeats.resolved > 0 && r.repeats.resolved < r.repeats.runs;
}

/** Flaky tests of the records, once each, in their first record's order. */
export function flakyTestsOf(records: readonly Pick<BatchRecord, 'repeats'>[]): string[] {
  return [...new Set(records.flatMap((r) => r.repeats?.flaky_tests ?? []))];
}
