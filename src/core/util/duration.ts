/**
 * "45s", "12m 03s", "2h 05m", "8d 8h": time spent, short enough for a table cell or a tree
 * description. Whole units passed (a clock's reading, never rounded up), the CLI's and the
 * editor's alike.
 */
export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}
