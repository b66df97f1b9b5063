/**
 * Turns the paths agents use (`/testbed/src/x.py`, `src/x.py`, `./x.py` from some working
 * directory) into repository-relative paths, the ones a patch names. The repository root comes
 * from the trajectory (SWE-agent's working_dir, OpenHands' uploaded_files); when it is unknown,
 * absolute paths stay absolute rather than being guessed.
 */
export class RepoPaths {
  constructor(readonly root: string | null) {}

  /** Repository-relative path, or the normalised absolute path when it lies outside the root. */
  resolve(path: string, cwd: string | null = null): string {
    let p = path.trim().replace(/^["']|["']$/g, '');
    if (!p.startsWith('/')) {
      const base = cwd ?? this.root;
      if (base) p = `${base}/${p}`;
      else return normalise(p);
    }
    p = normalise(p);
    if (this.root) {
      const root = normalise(this.root);
      if (p === root) return '.';
      if (p.startsWith(root + '/')) return p.slice(root.length + 1);
    }
    return p;
  }
}

function normalise(path: string): string {
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(part);
  }
  return (absolute ? '/' : '') + out.join('/');
}

/** A repository root from the first absolute working directory or path an agent mentions. */
export function rootFromWorkingDir(dir: string | null | undefined): string | null {
  if (!dir || !dir.startsWith('/') || dir === '/') return null;
  return normalise(dir);
}
