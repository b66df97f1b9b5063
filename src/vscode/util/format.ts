// Small formatting helpers for what the UI shows. Pure: no 'vscode'.

/** "45s", "12m 03s", "2h 05m": time spent on a step, short enough for a tree description. */
export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** Windows line ends, which the Testing view's terminal (xterm) needs to start each line at column 0. */
export function toTerminalText(chunk: string): string {
  return chunk.replace(/\r?\n/g, '\r\n');
}
