// A state file's schema check, remembered beside it (`<file>.checked`): that its exact text, read
// by this build's schemas, validates and comes back as the same text. Reading it again then
// needs only JSON.parse, not zod (stateSchemas.ts). Sound because the memo names the text by its
// hash (textHash: any edit, by hand or by another program, makes it another text) and the
// schemas by the build's fingerprint of src/protocol and zod's version (esbuild.mjs): an edited
// file, or a build with other schemas, checks the file in full again, and its errors are the
// same as ever. A lost or torn memo is only a full check. Unbundled code (tests under tsx, unless
// they set the fingerprint) has no fingerprint and neither writes nor trusts memos.
// docs/run-state.md, "Checked files".
import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../files';
import { textHash } from '../../core/util/textHash';

declare const __CHAINLENS_SCHEMA_FINGERPRINT__: string | undefined;

const MEMO_SUFFIX = '.checked';

/** This build's fingerprint of its schemas; null when it has none (unbundled). */
function fingerprint(): string | null {
  if (typeof __CHAINLENS_SCHEMA_FINGERPRINT__ === 'string') return __CHAINLENS_SCHEMA_FINGERPRINT__;
  const set = (globalThis as { __CHAINLENS_SCHEMA_FINGERPRINT__?: unknown }).__CHAINLENS_SCHEMA_FINGERPRINT__;
  return typeof set === 'string' ? set : null;
}

/** The memo: which schema (`kind`) of which build passed which text. */
const memoLine = (kind: string, fp: string, text: string): string =>
  `chainlens-checked 1 ${kind} ${fp} ${textHash(text)}\n`;

/** Whether `text`, the content of `file`, passed this build's `kind` schema when it was written. */
export function passedCheck(file: string, kind: string, text: string): boolean {
  const fp = fingerprint();
  if (fp === null) return false;
  let memo: string;
  try {
    memo = readFileSync(file + MEMO_SUFFIX, 'utf8');
  } catch {
    return false;
  }
  return memo === memoLine(kind, fp, text);
}

/**
 * Records that `text`, just written to `file`, passed the `kind` schema (`passed`), or forgets an
 * earlier memo. Written atomically like the file itself (no 0-byte memo on a full disk); a memo
 * lost to a crash or not written only costs a full check.
 */
export function rememberCheck(file: string, kind: string, text: string, passed: boolean): void {
  const fp = fingerprint();
  try {
    if (fp !== null && passed) writeFileAtomic(file + MEMO_SUFFIX, memoLine(kind, fp, text));
    else rmSync(file + MEMO_SUFFIX, { force: true });
  } catch {
    // A memo that cannot be written only costs a full check next time.
  }
}
