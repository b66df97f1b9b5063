// `chainlens checkout --mode oracle --step 3` (clone + Oracle state of step 3: base + gold test
// patches and patches of steps 1-2) against the raw git commands that produce the same tree,
// measured interleaved in one run. Two repository sizes: the demo as it is, and the demo with
// 4,000 extra files (about a Django checkout), since clone and checkout dominate real repositories.
// Run: npm run build && node --import tsx bench/checkout.ts [repetitions]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist/cli.js');
const reps = Number(process.argv[2] ?? 7);
const work = mkdtempSync(join(tmpdir(), 'chainlens-bench-checkout-'));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@b',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@b',
    },
  }).trim();

interface Fixture {
  name: string;
  repo: string;
  chainFile: string;
  base: string;
  patches: string[];
}

function fixture(name: string, extraFiles: number): Fixture {
  const repo = join(work, `${name}-repo`);
  execFileSync('bash', [join(ROOT, 'scripts/build-demo-repo.sh'), repo], { stdio: 'ignore' });
  const chain = JSON.parse(readFileSync(join(ROOT, 'demo/chain.json'), 'utf8'));
  if (extraFiles > 0) {
    for (let i = 0; i < extraFiles; i++) {
      const dir = join(repo, 'vendor', `pkg${i % 80}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, `module_${i}.py`),
        `"""Module ${i}."""\n\n` +
          Array.from({ length: 60 }, (_, j) => `def f_${j}(x):\n    return x * ${j} + ${i}\n`).join('\n'),
      );
    }
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'vendor a large tree');
    chain.base_commit = git(repo, 'rev-parse', 'HEAD');
  }
  const chainFile = join(work, `${name}-chain.json`);
  writeFileSync(chainFile, JSON.stringify(chain));
  const patches: string[] = [];
  for (const fix of chain.bug_fixes.slice(0, 2)) {
    for (const [kind, text] of [
      ['test', fix.test_patch],
      ['gold', fix.patch],
    ]) {
      const p = join(work, `${name}-${fix.order}-${kind}.diff`);
      writeFileSync(p, text);
      patches.push(p);
    }
  }
  return { name, repo, chainFile, base: chain.base_commit, patches };
}

function time(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function run(cmd: string, args: string[], cwd = work): void {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
}

function chainlens(f: Fixture, dir: string): void {
  run(process.execPath, [
    CLI,
    'checkout',
    f.chainFile,
    '--repo',
    f.repo,
    '--dir',
    dir,
    '--mode',
    'oracle',
    '--step',
    '3',
  ]);
}

function raw(f: Fixture, dir: string): void {
  run('git', ['clone', '-q', '--no-checkout', f.repo, dir]);
  run('git', ['-C', dir, 'checkout', '-q', '--detach', f.base]);
  run('git', ['-C', dir, 'apply', ...f.patches]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const f of [fixture('demo', 0), fixture('large', 4000)]) {
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < reps; i++) {
    const a = join(work, `${f.name}-cl-${i}`);
    const b = join(work, `${f.name}-raw-${i}`);
    // Alternate which goes first so caches favour neither.
    if (i % 2) {
      theirs.push(time(() => raw(f, b)));
      ours.push(time(() => chainlens(f, a)));
    } else {
      ours.push(time(() => chainlens(f, a)));
      theirs.push(time(() => raw(f, b)));
    }
    if (i === 0) {
      git(b, 'add', '-A');
      const rawTree = git(b, 'write-tree');
      const ourTree = git(a, 'rev-parse', 'HEAD^{tree}');
      if (rawTree !== ourTree) throw new Error(`trees differ: chainlens ${ourTree}, raw git ${rawTree}`);
    }
    rmSync(a, { recursive: true, force: true });
    rmSync(b, { recursive: true, force: true });
  }
  const files = git(f.repo, 'ls-files').split('\n').length;
  const ratio = median(ours) / median(theirs);
  console.log(
    `${f.name} (${files} files): chainlens checkout --mode oracle --step 3 ${median(ours).toFixed(0)} ms, raw git clone+checkout+apply ${median(theirs).toFixed(0)} ms, ratio ${ratio.toFixed(2)} (median of ${reps}, same tree verified)`,
  );
}
rmSync(work, { recursive: true, force: true });
