import type { Resolution, TestBucket, TestsStatus } from '../../../protocol/grading';

/** success / (success + failure); 1 for an empty bucket, as in the harness. */
export function bucketRatio(b: TestBucket): number {
  const total = b.success.length + b.failure.length;
  return total === 0 ? 1 : b.success.length / total;
}

/** FULL iff both ratios are 1; PARTIAL iff 0 < F2P < 1 and P2P is 1; otherwise NO. */
export function resolutionOf(tests: TestsStatus): Resolution {
  const f2p = bucketRatio(tests.FAIL_TO_PASS);
  const p2p = bucketRatio(tests.PASS_TO_PASS);
  if (f2p === 1 && p2p === 1) return 'RESOLVED_FULL';
  if (f2p > 0 && f2p < 1 && p2p === 1) return 'RESOLVED_PARTIAL';
  return 'RESOLVED_NO';
}
