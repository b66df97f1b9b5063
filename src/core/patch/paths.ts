import type { Patch } from './types';

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * Reads one git-quoted name (`"a/t\303\251st file.py"`) starting at `text[start] === '"'`.
 * Git escapes bytes, not characters, so octal runs are collected as bytes and decoded as UTF-8.
 * Returns the name and the index just after the closing quote, or undefined if unterminated.
 */
export function readQuoted(text: string, start: number): { name: string; end: number } | undefined {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') return { name: new TextDecoder().decode(new Uint8Array(bytes)), end: i + 1 };
    if (ch !== '\\') {
      bytes.push(...encoder.encode(ch));
      continue;
    }
    const next = text[++i];
    if (next === undefined) return undefined;
    if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(text.slice(i, i + 3))![0];
      bytes.push(parseInt(oct, 8) & 0xff);
      i += oct.length - 1;
    } else if (next in C_ESCAPES) {
      bytes.push(C_ESCAPES[next]);
    } else {
      bytes.push(...encoder.encode(next));
    }
  }
  return undefined;
}

/** A name from a `---`/`+++`/`rename from` line: quoted, or the raw rest (a tab ends it: git and diff -u put timestamps after one). */
export function readName(text: string): string {
  const trimmed = text.replace(/^[ ]+/, '');
  if (trimmed.startsWith('"')) {
    const q = readQuoted(trimmed, 0);
    if (q) return q.name;
  }
  const tab = trimmed.indexOf('\t');
  return (tab >= 0 ? trimmed.slice(0, tab) : trimmed).replace(/\r$/, '');
}

/** Drops git's `a/` or `b/` prefix; `/dev/null` means "no file". */
export function stripPrefix(name: string, prefix: 'a/' | 'b/'): string | null {
  if (name === '/dev/null') return null;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/**
 * The two names of a `diff --git a/X b/Y` line. Unquoted names may contain spaces, so when both
 * are unquoted the line is split where the two halves name the same path (the only case in which
 * git relies on this line alone: mode changes, binary and empty files); renames and edits get
 * their names from the lines that follow.
 */
export function parseGitHeaderNames(rest: string): { a: string; b: string } | undefined {
  rest = rest.replace(/\r$/, '');
  if (rest.startsWith('"')) {
    const first = readQuoted(rest, 0);
    if (!first) return undefined;
    const second = rest.slice(first.end).replace(/^ +/, '');
    return { a: first.name, b: second.startsWith('"') ? (readQuoted(second, 0)?.name ?? second) : second };
  }
  const quotedB = rest.indexOf(' "');
  if (quotedB >= 0) {
    const b = readQuoted(rest, quotedB + 1);
    if (b) return { a: rest.slice(0, quotedB), b: b.name };
  }
  // Same path on both sides: "a/P b/P" has length 2*len(P) + 5.
  if ((rest.length - 5) % 2 === 0) {
    const half = (rest.length - 5) / 2;
    const a = rest.slice(0, half + 2);
    const b = rest.slice(half + 3);
    if (rest[half + 2] === ' ' && a.slice(2) === b.slice(2)) return { a, b };
  }
  const sep = rest.indexOf(' b/');
  if (sep >= 0) return { a: rest.slice(0, sep), b: rest.slice(sep + 1) };
  return undefined;
}

/** Every path the patch reads or writes (old and new names of renames), each once, in patch order. */
export function touchedPaths(patch: Patch): string[] {
  const seen = new Set<string>();
  for (const f of patch.files) {
    if (f.oldPath !== null) seen.add(f.oldPath);
    if (f.newPath !== null) seen.add(f.newPath);
  }
  return [...seen];
}

/**
 * Whether a path from a patch may be written under a repository root: relative, no `..`
 * segment, nothing inside a `.git` directory (at any depth: submodules have one too), no NUL.
 * Backslashes count as separators so a patch cannot smuggle `..\` past a Windows checkout.
 */
export function isPathSafe(path: string): boolean {
  if (path === '' || path.includes('\0')) return false;
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return false;
  const segments = path.split(/[\\/]+/);
  return segments.every((s) => s !== '..' && s.toLowerCase() !== '.git');
}
