/**
 * Reading what tools printed: SWE-agent's windowed file viewer, the `cat -n` listings of
 * str_replace_editor / OpenHands' editor, mini-swe-agent's <returncode>/<output> wrapper and
 * OpenHands' command suffixes. Each reader returns null when the text is not what it expects, so
 * nothing is learned from output that only looks similar.
 */

export interface NumberedLines {
  path: string | null;
  startLine: number;
  lines: string[];
  totalLines?: number;
  /** The listing was cut (`<response clipped>`): lines after the last one are not shown. */
  clipped: boolean;
}

const WINDOW_HEADER = /\[File: ([^\n]+?)\r? \((\d+) lines total\)\]/;

/** SWE-agent windowed view: `[File: path (N lines total)]`, `(k more lines above)`, `273:text`. */
export function parseSweWindow(text: string): NumberedLines | null {
  const m = WINDOW_HEADER.exec(text);
  if (!m) return null;
  const rest = text.slice(m.index + m[0].length).split('\n');
  const lines: string[] = [];
  let start = 0;
  for (let k = 1; k < rest.length; k++) {
    const raw = rest[k].replace(/\r$/, '');
    if (lines.length === 0 && /^\(\d+ more lines above\)$/.test(raw)) continue;
    const lm = /^(\d+):(.*)$/s.exec(raw);
    if (!lm) break;
    const num = Number(lm[1]);
    if (lines.length === 0) start = num;
    else if (num !== start + lines.length) break;
    lines.push(lm[2]);
  }
  return { path: m[1].trim(), startLine: start || 1, lines, totalLines: Number(m[2]), clipped: false };
}

const CAT_N_HEADER = /Here's the result of running `cat -n` on (?:a snippet of )?([^\n]+?):\r?\n/;

/** `cat -n` listing printed by str_replace_editor / file_editor (`     1\tline`). */
export function parseCatNListing(text: string): NumberedLines | null {
  const m = CAT_N_HEADER.exec(text);
  if (!m) return null;
  const body = text.slice(m.index + m[0].length);
  const parsed = parseNumberedLines(body);
  if (!parsed) return null;
  return { path: m[1].trim(), ...parsed };
}

const TRUNCATION_NOTICE = /\[\.\.\. ?Observation truncated|\[\.\.\.[^\]]*truncated|characters elided/i;

/** Lines as `cat -n` / `nl -ba` print them: right-aligned number, a tab, the text. */
export function parseNumberedLines(body: string): { startLine: number; lines: string[]; clipped: boolean } | null {
  const rows = body.split('\n');
  const lines: string[] = [];
  let start = 0;
  const clipped = body.includes('<response clipped>');
  for (const row of rows) {
    const raw = row.replace(/\r$/, '');
    const lm = /^\s*(\d+)\t(.*)$/s.exec(raw);
    // a listing cut mid-line carries the marker on that line: its text is incomplete
    if (!lm || raw.includes('<response clipped>')) {
      // a truncation notice right after the last listed line means that line may be cut short
      if (TRUNCATION_NOTICE.test(raw) && lines.length && !raw.includes('<response clipped>')) lines.pop();
      break;
    }
    const num = Number(lm[1]);
    if (lines.length === 0) start = num;
    else if (num !== start + lines.length) break;
    lines.push(lm[2]);
  }
  if (lines.length === 0) return null;
  return { startLine: start, lines, clipped };
}

export interface CommandOutput {
  output: string;
  exitCode: number | null;
  /** Part of the output was left out by the agent framework (long output elided). */
  truncated: boolean;
}

/** mini-swe-agent observation: `<returncode>N</returncode><output>...</output>` or its JSON form. */
export function parseMiniObservation(content: string): CommandOutput | null {
  const rc = /<returncode>(-?\d+)<\/returncode>/.exec(content);
  if (rc) {
    const exitCode = Number(rc[1]);
    const out = /<output>\n?([\s\S]*?)<\/output>/.exec(content);
    if (out) return { output: out[1], exitCode, truncated: false };
    const head = /<output_head>\n?([\s\S]*?)<\/output_head>/.exec(content);
    const tail = /<output_tail>\n?([\s\S]*?)<\/output_tail>/.exec(content);
    return { output: `${head?.[1] ?? ''}${tail?.[1] ?? ''}`, exitCode, truncated: true };
  }
  const trimmed = content.trim();
  if (trimmed.startsWith('{') && trimmed.includes('"returncode"')) {
    try {
      const data = JSON.parse(trimmed) as Record<string, unknown>;
      const exitCode = typeof data.returncode === 'number' ? data.returncode : null;
      if (typeof data.output === 'string') return { output: data.output, exitCode, truncated: false };
      const head = typeof data.output_head === 'string' ? data.output_head : '';
      const tail = typeof data.output_tail === 'string' ? data.output_tail : '';
      return { output: head + tail, exitCode, truncated: true };
    } catch {
      return null;
    }
  }
  return null;
}

const OPENHANDS_SUFFIXES = [
  /\n?\[The command completed with exit code (-?\d+)\.\]\s*$/,
  /\n?\[Command finished with exit code (-?\d+)\]\s*$/,
  /\n?\[Current working directory: [^\]\n]*\]\s*$/,
  /\n?\[Python interpreter: [^\]\n]*\]\s*$/,
  /\n?\[Jupyter current working directory: [^\]\n]*\]\s*$/,
];

/** OpenHands command output without the status lines it appends; the exit code if one says it. */
export function stripOpenHandsSuffix(content: string): { output: string; exitCode: number | null } {
  let output = content;
  let exitCode: number | null = null;
  for (let changed = true; changed;) {
    changed = false;
    for (const re of OPENHANDS_SUFFIXES) {
      const m = re.exec(output);
      if (m) {
        if (m[1] !== undefined && exitCode === null) exitCode = Number(m[1]);
        output = output.slice(0, m.index);
        changed = true;
      }
    }
  }
  return { output, exitCode };
}

/** SWE-agent's windowed `edit` reports that nothing was applied. */
export function windowedEditFailed(observation: string): boolean {
  return /Your proposed edit has introduced new syntax error|Your changes have NOT been applied|^Usage: edit|^Error: /m.test(
    observation,
  );
}

/** str_replace_editor / file_editor reports that the command did nothing. */
export function editorCommandFailed(observation: string): boolean {
  return /^(ERROR:|No replacement was performed|Invalid `|The path \S+ does not exist|File already exists at|Parameter `|Error: )/m.test(
    observation.trimStart(),
  );
}

/** The listing a `view` of a directory prints (not file content). */
export function isDirectoryListing(observation: string): boolean {
  return /Here's the files and directories up to \d+ levels? deep in/.test(observation);
}

export function splitLines(content: string): { lines: string[]; endsWithNewline: boolean } {
  if (content === '') return { lines: [], endsWithNewline: true };
  const endsWithNewline = content.endsWith('\n');
  const lines = (endsWithNewline ? content.slice(0, -1) : content).split('\n');
  return { lines, endsWithNewline };
}
