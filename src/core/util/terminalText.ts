/**
 * Text from files ChainLens did not write (trajectories, chain ids, test names, container logs)
 * can hold terminal control sequences: ESC ] 0 ; … sets the window title, ESC [ 2 J clears the
 * screen, ESC ] 52 ; … writes the clipboard. Printed raw, a file would drive the person's
 * terminal. This makes every such character visible instead, as a `\uXXXX` escape: readable in
 * plain text, and still a valid escape inside a JSON string (so `--json` output stays JSON that
 * decodes to the original text). See docs/reference/cli.md.
 *
 * Neutralised: C0 controls except tab and newline, DEL, C1 controls (U+0080-U+009F, which some
 * terminals obey as 8-bit CSI/OSC), and the bidirectional overrides and isolates (text that
 * reads differently from what it is). CRLF becomes LF; a lone CR (which would overwrite the
 * line) is shown.
 */
const UNSAFE = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function neutraliseControls(text: string): string {
  return text.replace(UNSAFE, (c) => (c === '\r\n' ? '\n' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
