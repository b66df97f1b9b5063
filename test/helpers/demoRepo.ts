// The built-in demo chain's repository, built once per test process by the project's own script.
import './dataDir';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
export const DEMO_CHAIN = join(ROOT, 'demo/chain.json');
export const DEMO_PREDICTIONS = join(ROOT, 'demo/predictions-undershoot.jsonl');

let repo: string | undefined;

export function demoRepo(): string {
  if (repo) return repo;
  const dir = join(mkdtempSync(join(tmpdir(), 'chainlens-demo-')), 'invoicekit');
  execFileSync('bash', [join(ROOT, 'scripts/build-demo-repo.sh'), dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  repo = dir;
  return dir;
}

/** A fresh demo repository (its own, to change freely) with the demo agent's step-1 patch committed on top of base. */
export function demoRepoAfterRecordedStep1(): { dir: string; base: string; end: string; remove(): void } {
  const tmp = mkdtempSync(join(tmpdir(), 'chainlens-demo-step1-'));
  const dir = join(tmp, 'repo');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  const base = execFileSync('bash', [join(ROOT, 'scripts', 'build-demo-repo.sh'), dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  git('apply', join(ROOT, 'demo', 'steps', '1', 'predicted.patch'));
  git('commit', '-qam', 'predicted step 1');
  return { dir, base, end: git('rev-parse', 'HEAD'), remove: () => rmSync(tmp, { recursive: true, force: true }) };
}
