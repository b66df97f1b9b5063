import { formatEta } from './eta';

export interface ProgressCounts {
  readonly done: number;
  readonly total: number;
  /** Done in this process (not counting records a resumed run found). */
  readonly doneHere: number;
  readonly elapsedMs: number;
  readonly infraFailures: number;
  readonly running: number;
}

/** Steps per minute in this process, and the time left at that pace (null before the first step). */
export function pace(c: ProgressCounts): { perMinute: number | null; etaMs: number | null } {
  if (c.doneHere === 0 || c.elapsedMs <= 0) return { perMinute: null, etaMs: null };
  const perMs = c.doneHere / c.elapsedMs;
  return { perMinute: perMs * 60_000, etaMs: (c.total - c.done) / perMs };
}

/** "[#########-----------] 12/36  3.1 steps/min  ETA 7m 44s  (2 running, 1 infra failure)" */
export function progressBar(c: ProgressCounts, width = 24): string {
  const filled = c.total ? Math.round((c.done / c.total) * width) : width;
  const { perMinute, etaMs } = pace(c);
  const extra = [`${c.running} running`, ...(c.infraFailures ? [`${c.infraFailures} infra failure(s)`] : [])];
  return (
    `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${c.done}/${c.total}` +
    `  ${perMinute === null ? '-' : perMinute.toFixed(1)} steps/min  ETA ${etaMs === null ? '-' : formatEta(etaMs)}` +
    `  (${extra.join(', ')})`
  );
}
