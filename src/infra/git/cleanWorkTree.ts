// Whether a work tree is certainly clean, read from .git's own files: `chainlens status` asks this
// before starting `git status` (several milliseconds of a start that should cost little more
// than Node's own; issue 20). Only "certainly clean" is answered here; every doubt (a file whose
// stat data differs from the index, a file the index does not list, a layout or index feature not
// read here) returns false and the caller asks git, which then has the last word. Formats:
// gitformat-index(5) (index v2/v3 and its TREE extension), gitformat-pack(5) (pack index v2),
// gitrepository-layout(5).
import { createHash } from 'node:crypto';
import { closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { inflatePrefix } from '../../core/util/inflatePrefix';
import { headFromFiles, workTreeAtTop } from './repoFiles';

/** Beyond this many index entries git, which stats files in parallel, is left to answer. */
const MAX_ENTRIES = 5000;

interface IndexEntry {
  path: string;
  ctimeSec: number;
  ctimeNsec: number;
  mtimeSec: number;
  mtimeNsec: number;
  dev: number;
  ino: number;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  /** The blob id, hex. */
  oid: string;
}

interface Index {
  entries: IndexEntry[];
  /** The tree the whole index would be written as (its TREE extension's root), when that is valid. */
  rootTree: string | null;
  /** The index file's mtime, ns: entries changed at or after it are "racily clean" (git re-reads them). */
  mtimeNs: bigint;
}

/**
 * True when `git status --porcelain --untracked-files=all` in `top` would print nothing: the
 * index is the HEAD commit's tree, every file the index lists has the stat data recorded for it,
 * and no file outside the index exists (ignored or not; an ignored file makes this ask git).
 */
export function certainlyClean(top: string, gitDir: string): boolean {
  try {
    if (workTreeAtTop(top)?.gitDir !== gitDir) return false;
    const index = readIndex(join(gitDir, 'index'));
    if (!index || index.rootTree === null) return false;
    const head = headFromFiles(gitDir)?.commit;
    if (!head || commitTree(gitDir, head) !== index.rootTree) return false;
    const racy: IndexEntry[] = [];
    for (const e of index.entries) {
      const stat = statMatches(top, e, index.mtimeNs);
      if (stat === 'differs') return false;
      if (stat === 'racy') racy.push(e);
    }
    if (racy.length && !racyEntriesUnchanged(top, gitDir, index.entries, racy)) return false;
    return onlyIndexedFiles(top, '', new Set(index.entries.map((e) => e.path)), { left: MAX_ENTRIES * 2 });
  } catch {
    return false;
  }
}

function readIndex(file: string): Index | null {
  const mtimeNs = statSync(file, { bigint: true }).mtimeNs;
  const buf = readFileSync(file);
  if (buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  const count = buf.readUInt32BE(8);
  // v4 compresses paths; not read here.
  if ((version !== 2 && version !== 3) || count > MAX_ENTRIES) return null;
  const entries: IndexEntry[] = [];
  let at = 12;
  for (let i = 0; i < count; i++) {
    const flags = buf.readUInt16BE(at + 60);
    // Assume-unchanged, an extended flag (skip-worktree, intent-to-add), or a merge stage: ask git.
    if (flags & 0xf000) return null;
    const pathStart = at + 62;
    const pathEnd = buf.indexOf(0, pathStart);
    if (pathEnd < 0) return null;
    const mode = buf.readUInt32BE(at + 24);
    // Regular files and symlinks only; a gitlink (submodule) is git's to judge.
    if (mode !== 0o100644 && mode !== 0o100755 && mode !== 0o120000) return null;
    entries.push({
      path: buf.toString('utf8', pathStart, pathEnd),
      ctimeSec: buf.readUInt32BE(at),
      ctimeNsec: buf.readUInt32BE(at + 4),
      mtimeSec: buf.readUInt32BE(at + 8),
      mtimeNsec: buf.readUInt32BE(at + 12),
      dev: buf.readUInt32BE(at + 16),
      ino: buf.readUInt32BE(at + 20),
      mode,
      uid: buf.readUInt32BE(at + 28),
      gid: buf.readUInt32BE(at + 32),
      size: buf.readUInt32BE(at + 36),
      oid: buf.toString('hex', at + 40, at + 60),
    });
    // Each entry is padded with 1 to 8 NULs to a multiple of 8 bytes.
    at += (62 + (pathEnd - pathStart) + 8) & ~7;
  }
  let rootTree: string | null = null;
  const end = buf.length - 20;
  while (at + 8 <= end) {
    const signature = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32BE(at + 4);
    // An extension whose name starts with a lowercase letter must be understood (split index, sparse).
    if (!/^[A-Z]/.test(signature)) return null;
    if (signature === 'TREE') rootTree = rootOfCacheTree(buf.subarray(at + 8, at + 8 + size), count);
    at += 8 + size;
  }
  return { entries, rootTree, mtimeNs };
}

/** The TREE extension's first entry is the root: "" NUL count SP subtrees LF, then its tree id. */
function rootOfCacheTree(tree: Buffer, entryCount: number): string | null {
  if (tree[0] !== 0) return null;
  const lineEnd = tree.indexOf(0x0a, 1);
  const [count] = tree.toString('latin1', 1, lineEnd).split(' ');
  // -1: invalidated since it was written (a staged change); fewer entries: not the whole index.
  if (Number(count) !== entryCount) return null;
  return tree.subarray(lineEnd + 1, lineEnd + 21).toString('hex');
}

/**
 * 'same': git takes the file as unchanged from its stat data alone. 'racy': the stat data is the
 * same but the file changed in the index file's own timestamp slot (the file system's clock is
 * coarse: a checkout writes files and index within one tick), so git compares the content.
 */
function statMatches(top: string, e: IndexEntry, indexMtimeNs: bigint): 'same' | 'racy' | 'differs' {
  const st = lstatSync(join(top, e.path), { bigint: true, throwIfNoEntry: false });
  if (!st) return 'differs';
  const mode = st.isSymbolicLink() ? 0o120000 : st.isFile() ? (st.mode & 0o100n ? 0o100755 : 0o100644) : -1;
  const low = (n: bigint) => Number(n & 0xffffffffn);
  const mtimeNs = BigInt(e.mtimeSec) * 1_000_000_000n + BigInt(e.mtimeNsec);
  const same =
    mode === e.mode &&
    low(st.size) === e.size &&
    low(st.mtimeNs / 1_000_000_000n) === e.mtimeSec &&
    Number(st.mtimeNs % 1_000_000_000n) === e.mtimeNsec &&
    low(st.ctimeNs / 1_000_000_000n) === e.ctimeSec &&
    Number(st.ctimeNs % 1_000_000_000n) === e.ctimeNsec &&
    low(st.ino) === e.ino &&
    low(st.dev) === e.dev &&
    low(st.uid) === e.uid &&
    low(st.gid) === e.gid;
  if (!same) return 'differs';
  return mtimeNs < indexMtimeNs ? 'same' : 'racy';
}

/** What git hashes a file as is the file itself only without attributes and eol config to convert it. */
const CONVERTING_CONFIG = /autocrlf|\beol\b|safecrlf|attributesfile|^[ \t]*\[[ \t]*(include|filter)/im;
/** Beyond this much racily clean content git, hashing in C, is left to compare it. */
const RACY_BYTES = 1 << 20;
/** zlib's Z_SYNC_FLUSH, written out: status.cjs defers node:zlib, whose constants it cannot defer. */
const Z_SYNC_FLUSH = 2;
/** Enough of a commit object for its first line: "commit <size>\0" and "tree <40 hex>\n". */
const COMMIT_PREFIX = 128;

/**
 * The racily clean files (regular files only) still hold the blob the index names, hashed as git
 * hashes it (sha1 of "blob <size>\0" and the content). Only where git would hash the raw content:
 * no .gitattributes in the index, no attributes file, no config that converts line ends.
 */
function racyEntriesUnchanged(top: string, gitDir: string, all: IndexEntry[], racy: IndexEntry[]): boolean {
  if (all.some((e) => e.path === '.gitattributes' || e.path.endsWith('/.gitattributes'))) return false;
  const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  const attributes = [join(gitDir, 'info', 'attributes'), join(xdg, 'git', 'attributes'), '/etc/gitattributes'];
  if (attributes.some((f) => existsSync(f))) return false;
  const configs = [join(gitDir, 'config'), join(xdg, 'git', 'config'), join(homedir(), '.gitconfig'), '/etc/gitconfig'];
  for (const f of configs) if (existsSync(f) && CONVERTING_CONFIG.test(readFileSync(f, 'utf8'))) return false;
  let bytes = 0;
  for (const e of racy) {
    if (e.mode === 0o120000 || (bytes += e.size) > RACY_BYTES) return false;
    const content = readFileSync(join(top, e.path));
    if (content.length !== e.size) return false;
    const oid = createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
    if (oid !== e.oid) return false;
  }
  return true;
}

/** Every file and symlink under `dir` is in `indexed`; a nested repository or a special file is a doubt. */
function onlyIndexedFiles(dir: string, rel: string, indexed: Set<string>, budget: { left: number }): boolean {
  for (const d of readdirSync(rel ? join(dir, rel) : dir, { withFileTypes: true })) {
    if (--budget.left < 0) return false;
    const path = rel ? `${rel}/${d.name}` : d.name;
    if (d.name === '.git') {
      if (rel === '') continue;
      return false;
    }
    if (d.isDirectory()) {
      if (!onlyIndexedFiles(dir, path, indexed, budget)) return false;
    } else if (!(d.isFile() || d.isSymbolicLink()) || !indexed.has(path)) return false;
  }
  return true;
}

/** The tree of commit `sha`, from a loose object or an undeltified one in a pack; null otherwise. */
function commitTree(gitDir: string, sha: string): string | null {
  const objects = join(gitDir, 'objects');
  const loose = join(objects, sha.slice(0, 2), sha.slice(2));
  let body: string;
  if (existsSync(loose)) {
    const compressed = readFileSync(loose);
    const raw = Buffer.from(inflatePrefix(compressed, COMMIT_PREFIX) ?? inflateSync(compressed)).toString('latin1');
    if (!raw.startsWith('commit ')) return null;
    body = raw.slice(raw.indexOf('\0') + 1);
  } else {
    const packed = packedCommit(join(objects, 'pack'), sha);
    if (packed === null) return null;
    body = packed;
  }
  const tree = /^tree ([0-9a-f]{40})\n/.exec(body)?.[1];
  return tree ?? null;
}

/** The start of commit `sha`'s text from the pack that holds it (pack index v2), if not a delta. */
function packedCommit(packDir: string, sha: string): string | null {
  if (!existsSync(packDir)) return null;
  const wanted = Buffer.from(sha, 'hex');
  for (const name of readdirSync(packDir)) {
    if (!name.endsWith('.idx')) continue;
    const idx = readFileSync(join(packDir, name));
    if (idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) return null;
    const fanout = (b: number) => (b < 0 ? 0 : idx.readUInt32BE(8 + 4 * b));
    const total = fanout(255);
    const names = 8 + 1024;
    let lo = fanout(wanted[0] - 1);
    let hi = fanout(wanted[0]);
    let found = -1;
    while (lo < hi && found < 0) {
      const mid = (lo + hi) >> 1;
      const c = wanted.compare(idx, names + 20 * mid, names + 20 * mid + 20);
      if (c === 0) found = mid;
      else if (c < 0) hi = mid;
      else lo = mid + 1;
    }
    if (found < 0) continue;
    const offset = idx.readUInt32BE(names + 24 * total + 4 * found);
    // Offsets of 2 GiB and more sit in another table: such packs are left to git.
    if (offset & 0x80000000) return null;
    return readPackedObject(join(packDir, name.replace(/\.idx$/, '.pack')), offset);
  }
  return null;
}

function readPackedObject(pack: string, offset: number): string | null {
  const fd = openSync(pack, 'r');
  const chunk = Buffer.alloc(1024);
  let read: number;
  try {
    read = readSync(fd, chunk, 0, chunk.length, offset);
  } finally {
    closeSync(fd);
  }
  let at = 0;
  const type = (chunk[0] >> 4) & 7;
  while (chunk[at] & 0x80) at++;
  at++;
  // 1: a commit stored whole; deltas (6, 7) are git's to resolve.
  if (type !== 1) return null;
  // The commit's first line is all that is needed: a partial inflate of its first bytes is enough.
  const stream = chunk.subarray(at, read);
  const text = inflatePrefix(stream, COMMIT_PREFIX) ?? inflateSync(stream, { finishFlush: Z_SYNC_FLUSH });
  return Buffer.from(text).toString('latin1');
}
