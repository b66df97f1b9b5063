import { spawn } from 'node:child_process';
import { isPathSafe } from '../../core/patch/paths';
import { UserError } from '../../core/util/errors';

function catFile(cwd: string, input: string): Promise<{ code: number; out: Buffer; err: string }> {
  return new Promise((res, rej) => {
    const p = spawn('git', ['cat-file', '--batch'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (d: Buffer) => out.push(d));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', rej);
    p.on('close', (code) => res({ code: code ?? 1, out: Buffer.concat(out), err }));
    // git may exit before reading everything (bad revision); its exit code says why, not EPIPE.
    p.stdin.on('error', () => {});
    p.stdin.end(input);
  });
}

/**
 * File contents at a revision, read in one `git cat-file --batch` process (one `git show` per file
 * would start a process per file). Missing paths (and unsafe ones) come back undefined.
 */
export async function readBlobs(
  repo: string,
  rev: string,
  paths: readonly string[],
): Promise<Map<string, string | undefined>> {
  const wanted = [...new Set(paths)].filter((p) => isPathSafe(p));
  const result = new Map<string, string | undefined>();
  if (wanted.length === 0) return result;
  const { code, out, err } = await catFile(repo, wanted.map((p) => `${rev}:${p}\n`).join(''));
  if (code !== 0) throw new UserError(`git cat-file in ${repo} failed: ${err.trim()}`, 'git');
  let at = 0;
  for (const path of wanted) {
    const nl = out.indexOf(0x0a, at);
    const header = out.subarray(at, nl).toString();
    at = nl + 1;
    const m = /^\S+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      result.set(path, undefined);
      continue;
    }
    const size = Number(m[2]);
    result.set(path, m[1] === 'blob' ? out.subarray(at, at + size).toString('utf8') : undefined);
    at += size + 1;
  }
  return result;
}
