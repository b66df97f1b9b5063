import { Transform } from 'node:stream';

/** A file or directory for a tar archive; `path` is absolute inside the container. */
export interface TarEntry {
  readonly path: string;
  readonly content?: string | Buffer;
  readonly mode: number;
  readonly directory?: boolean;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** A ustar header block for one entry; `name` is relative (no leading '/'). */
export function tarHeader(name: string, size: number, mode: number, type: '0' | '5' = '0'): Buffer {
  const h = Buffer.alloc(BLOCK);
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
    if (cut <= 0 || Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155)
      throw new Error(`path too long for a tar header: ${prefix}/${name}`);
  }
  h.write(name, 0, 100);
  h.write(octal(mode & 0o7777, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(Math.floor(Date.now() / 1000), 12), 136);
  h.write('        ', 148);
  h.write(type, 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  h.write('root', 265);
  h.write('root', 297);
  h.write(prefix, 345, 155);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148);
  return h;
}

/**
 * A ustar archive of small in-memory files (scripts and patches), to be extracted at '/'.
 * Without the end-of-archive trailer, another archive (git archive's) can follow in the same stream.
 */
export function tarArchive(entries: readonly TarEntry[], { trailer = true } = {}): Buffer {
  const parts: Buffer[] = [];
  const dirs = new Set<string>();
  const addDirs = (path: string) => {
    const segments = path.split('/').filter(Boolean);
    for (let i = 1; i < segments.length; i++) {
      const dir = segments.slice(0, i).join('/') + '/';
      if (!dirs.has(dir)) {
        dirs.add(dir);
        parts.push(tarHeader(dir, 0, 0o755, '5'));
      }
    }
  };
  for (const e of entries) {
    const name = e.path.replace(/^\/+/, '');
    addDirs(name);
    if (e.directory) {
      addDirs(name + '/x');
      continue;
    }
    const body = typeof e.content === 'string' ? Buffer.from(e.content) : (e.content ?? Buffer.alloc(0));
    parts.push(tarHeader(name, body.length, e.mode, '0'), body);
    const pad = (BLOCK - (body.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  if (trailer) parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

/** Zero bytes that pad an entry's data of `size` bytes to whole blocks. */
export function tarPadding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The end-of-archive marker: two zero blocks. */
export const TAR_TRAILER = Buffer.alloc(BLOCK * 2);

/** An entry's data size from its header: octal digits, or base-256 when the first byte's high bit is set. */
function entrySize(h: Buffer): number {
  if (h[124] & 0x80) {
    let n = h[124] & 0x7f;
    for (let i = 125; i < 136; i++) n = n * 256 + h[i];
    return n;
  }
  const text = h
    .toString('latin1', 124, 136)
    .replace(/[\0 ]+$/g, '')
    .trim();
  return text === '' ? 0 : parseInt(text, 8);
}

/**
 * Passes a tar stream's entries through and drops its end (the zero blocks of the end-of-archive
 * marker and the record padding after them), so more entries can follow in the same stream: a
 * container's one `tar -x` then reads the repository copy and the evaluation's files as one
 * archive. Entries are followed by their headers' sizes, so data that happens to hold zero blocks
 * is never taken for the end.
 */
export function tarEntriesOnly(): Transform {
  let pending: Buffer = Buffer.alloc(0);
  /** Bytes of entry data (padding included) still to pass before the next header. */
  let data = 0;
  let ended = false;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (ended) return done();
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const out: Buffer[] = [];
      let at = 0;
      while (at < pending.length) {
        if (data > 0) {
          const n = Math.min(data, pending.length - at);
          out.push(pending.subarray(at, at + n));
          at += n;
          data -= n;
          continue;
        }
        if (pending.length - at < BLOCK) break;
        const h = pending.subarray(at, at + BLOCK);
        if (h.every((b) => b === 0)) {
          ended = true;
          break;
        }
        const size = entrySize(h);
        out.push(h);
        at += BLOCK;
        data = Math.ceil(size / BLOCK) * BLOCK;
      }
      pending = ended ? Buffer.alloc(0) : pending.subarray(at);
      done(null, out.length ? Buffer.concat(out) : undefined);
    },
    flush(done) {
      done(pending.length && !ended ? new Error('tar stream ended inside a header') : null);
    },
  });
}
