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

function header(name: string, size: number, mode: number, type: '0' | '5'): Buffer {
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
        parts.push(header(dir, 0, 0o755, '5'));
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
    parts.push(header(name, body.length, e.mode, '0'), body);
    const pad = (BLOCK - (body.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  if (trailer) parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
