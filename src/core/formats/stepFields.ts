// Checks of chain fields that a JSON schema cannot express, shared by every chain format so
// `validate` refuses at load time what would otherwise go wrong later: an instance id that breaks
// commit messages and file names, a patch that writes outside the repository (or into .git, where
// a hook would run code on the person's machine), text that is not a patch at all.
// See docs/reference/chain-validation.md.
import { isPathSafe, parsePatch, touchedPaths } from '../patch';

/** Why `id` cannot be an instance id (it becomes part of commit messages, refs and file names), or null. */
export function instanceIdProblem(id: string): string | null {
  const bad = /[\u0000-\u001f\u007f-\u009f\s/\\]/.exec(id);
  if (bad) return `instance id must not contain ${describeChar(bad[0])}`;
  if (id === '.' || id === '..') return `'${id}' is not an instance id`;
  return null;
}

/** Why `id` cannot be a chain id (printed and recorded; never a control character), or null. */
export function chainIdProblem(id: string): string | null {
  const bad = /[\u0000-\u001f\u007f-\u009f]/.exec(id);
  return bad ? `chain id must not contain ${describeChar(bad[0])}` : null;
}

/**
 * Why a patch of the chain (gold fix or test patch) must be refused, or null. Empty is allowed
 * (some steps have no test patch); anything else must be a unified diff whose every path stays
 * inside the repository and out of `.git`.
 */
export function patchProblem(text: string): string | null {
  if (text.trim() === '') return null;
  let paths: string[];
  try {
    const patch = parsePatch(text, 'patch');
    if (patch.files.length === 0) return 'is not a unified diff (no file header such as "diff --git" or "---/+++")';
    paths = touchedPaths(patch);
  } catch (e) {
    return `is not a valid unified diff (${(e as Error).message.replace(/^patch: /, '')})`;
  }
  const unsafe = paths.filter((p) => !isPathSafe(p));
  return unsafe.length
    ? `writes outside the repository or into .git: ${unsafe.map((p) => JSON.stringify(p)).join(', ')}`
    : null;
}

function describeChar(c: string): string {
  if (c === '\n') return 'a newline';
  if (c === '\t') return 'a tab';
  if (c === ' ') return 'a space';
  if (c === '/' || c === '\\') return `'${c}'`;
  return `the control character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
