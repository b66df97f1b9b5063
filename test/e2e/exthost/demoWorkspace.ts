// A fresh demo work tree for e2e tests: the invoicekit repository at base (scripts/build-demo-repo.sh)
// with the demo chain, the demo agent's predictions and a deliberately broken chain beside the
// sources, git-ignored the way `npm start` does it, so they never count as a step's changes.
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../harness';

export interface DemoWorkspace {
  dir: string;
  baseCommit: string;
  chainFile: string;
  brokenChainFile: string;
  remove(): void;
}

/** Line (1-based) of `needle` in `file`, for asserting where a problem is reported. */
export function lineOf(file: string, needle: string): number {
  return (
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(needle)) + 1
  );
}

/** `checkout`: also start a Seq run in place with the CLI, as if a person had opened the chain before. */
export function makeDemoWorkspace(options: { checkout?: boolean } = {}): DemoWorkspace {
  const prefix = 'chainlens-demo-ws-';
  const dir = join(mkdtempSync(join(tmpdir(), prefix)), 'invoicekit');
  const baseCommit = execFileSync('bash', [join(repoRoot, 'scripts', 'build-demo-repo.sh'), dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
  const chainFile = join(dir, 'invoicekit.chain.json');
  copyFileSync(join(repoRoot, 'demo', 'chain.json'), chainFile);
  copyFileSync(join(repoRoot, 'demo', 'predictions-undershoot.jsonl'), join(dir, 'demo-agent.predictions.jsonl'));
  copyFileSync(
    join(repoRoot, 'demo', 'trajectories', 'chainlens-demo__invoicekit-101.traj.json'),
    join(dir, 'demo-agent.traj.json'),
  );
  // Broken on purpose: step 2's order is text and base_commit is missing.
  const brokenChainFile = join(dir, 'broken.chain.json');
  const chain = JSON.parse(readFileSync(chainFile, 'utf8')) as {
    base_commit?: string;
    bug_fixes: { order: unknown }[];
  };
  delete chain.base_commit;
  chain.bug_fixes[1].order = 'two';
  writeFileSync(brokenChainFile, `${JSON.stringify(chain, null, 2)}\n`);
  appendFileSync(
    join(dir, '.git', 'info', 'exclude'),
    '/invoicekit.chain.json\n/demo-agent.predictions.jsonl\n/demo-agent.traj.json\n/broken.chain.json\n',
  );
  if (options.checkout) {
    execFileSync(
      process.execPath,
      [join(repoRoot, 'dist', 'cli.js'), 'checkout', chainFile, '--repo', dir, '--dir', dir],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  }
  return {
    dir,
    baseCommit,
    chainFile,
    brokenChainFile,
    remove: () => rmSync(join(dir, '..'), { recursive: true, force: true }),
  };
}
