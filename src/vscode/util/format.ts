// Small formatting helpers for what the UI shows. Pure: no 'vscode'.

/** Windows line ends, which the Testing view's terminal (xterm) needs to start each line at column 0. */
export function toTerminalText(chunk: string): string {
  return chunk.replace(/\r?\n/g, '\r\n');
}
