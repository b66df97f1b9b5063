// The built-in demo chain's repository, built once per test process by the project's own script.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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
