// `chainlens checkout --mode oracle --step 3` (a repository holding history up to base only, plus
// the Oracle state of step 3: base + gold test patches and patches of steps 1-2) against the raw
// git commands that produce the same repository and tree (init, fetch of the base commit,
// checkout, then apply and commit per gold step: ChainLens commits each step's Oracle state),
// measured interleaved in one run, with `node -e 0` (what any Node.js program pays to start here)
// and, when CHAINLENS_BENCH_BEFORE names another build's dist/cli.js, that build.
// A third column is what a plain clone costs (it would also carry the source's later history):
// the price of giving the solver no future commits. Three repositories: the demo as it is; the
// demo with 4,000 extra files (about a Django checkout), since checkout dominates real
// repositories; and that with 3,000 commits of history before base and 300 after it, since
// copying history dominates long-lived ones.
// Run: npm run build && node --import tsx bench/checkout.ts [repetitions] [demo,large,history]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist/cli.js');
/** Another build's dist/cli.js, measured in the same rounds (before and after a change). */
const BEFORE = process.env.CHAINLENS_BENCH_BEFORE;
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
  /** Per gold step before step 3: its test_patch and patch files. */
  steps: string[][];
}

/** `commits` commits, each rewriting one vendored file, written in one go by git fast-import. */
function addHistory(repo: string, commits: number, files: number, marker: string): void {
  const lines: string[] = [];
  const head = git(repo, 'rev-parse', 'HEAD');
  for (let i = 0; i < commits; i++) {
    const path = `vendor/pkg${i % 80}/module_${(i * 7) % files}.py`;
    const body = `# ${marker} revision ${i}\n\ndef rev():\n    return ${i}\n`;
    const message = `${marker} ${i}`;
    lines.push(
      'commit refs/heads/main',
      `committer b <b@b> ${1_700_000_000 + i} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
      ...(i === 0 ? [`from ${head}`] : []),
      `M 100644 inline ${path}`,
      `data ${Buffer.byteLength(body)}`,
      body,
    );
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, input: lines.join('\n') + '\n' });
  git(repo, 'reset', '-q', '--hard', 'main');
}

function fixture(name: string, extraFiles: number, history = 0): Fixture {
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
    if (history > 0) addHistory(repo, history, extraFiles, 'history');
    chain.base_commit = git(repo, 'rev-parse', 'HEAD');
    // Later upstream work the work tree must not receive.
    if (history > 0) addHistory(repo, Math.round(history / 10), extraFiles, 'future');
  }
  // Packed, as any clone or mirror is (a source of 4,000 freshly committed loose objects makes the
  // base-only fetch deflate each one: about 4 s here, against 0.3 s packed).
  git(repo, 'repack', '-a', '-d', '-q');
  const chainFile = join(work, `${name}-chain.json`);
  writeFileSync(chainFile, JSON.stringify(chain));
  const steps: string[][] = [];
  for (const fix of chain.bug_fixes.slice(0, 2)) {
    const patches: string[] = [];
    for (const [kind, text] of [
      ['test', fix.test_patch],
      ['gold', fix.patch],
    ]) {
      const p = join(work, `${name}-${fix.order}-${kind}.diff`);
      writeFileSync(p, text);
      patches.push(p);
    }
    steps.push(patches);
  }
  return { name, repo, chainFile, base: chain.base_commit, steps };
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

function chainlens(f: Fixture, dir: string, cli = CLI): void {
  run(process.execPath, [
    cli,
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

/**
 * Each gold step is committed, as ChainLens commits the Oracle state of every step before the
 * start (refs/chainlens/<run>/oracle/step-2 and step-3): the raw side pays for those commits too.
 */
const commit = (step: number) => ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', `gold ${step}`];

/** The gold steps before step 3 applied and committed in turn: the Oracle start of step 3. */
function applyGoldSteps(f: Fixture, dir: string): void {
  f.steps.forEach((patches, i) => {
    run('git', ['-C', dir, 'apply', '--index', ...patches]);
    run('git', ['-C', dir, ...commit(i + 1)]);
  });
}

/**
 * The parallel checkout ChainLens's own checkouts use (src/infra/git/git.ts): the raw side gets
 * the same option, or the comparison would measure git's option and not ChainLens's overhead.
 */
const PARALLEL = ['-c', 'checkout.workers=0'];

/** The same repository and tree with raw git: history up to base only, then the Oracle state, committed. */
function raw(f: Fixture, dir: string): void {
  run('git', ['init', '-q', dir]);
  run('git', ['-C', dir, 'fetch', '-q', '--no-tags', f.repo, `${f.base}:refs/base`]);
  run('git', ['-C', dir, ...PARALLEL, 'checkout', '-q', '--detach', f.base]);
  applyGoldSteps(f, dir);
}

/** What a plain clone costs for the same tree (it keeps the source's later history). */
function clone(f: Fixture, dir: string): void {
  run('git', ['clone', '-q', '--no-checkout', f.repo, dir]);
  run('git', ['-C', dir, ...PARALLEL, 'checkout', '-q', '--detach', f.base]);
  applyGoldSteps(f, dir);
}

/** The floor any Node.js program pays on this machine (NODE_EXTRA_CA_CERTS, for one, loads a CA bundle at every start). */
function nodeStart(): void {
  run(process.execPath, ['-e', '0']);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const only = process.argv[3]?.split(',');
const fixtures: [string, () => Fixture][] = [
  ['demo', () => fixture('demo', 0)],
  ['large', () => fixture('large', 4000)],
  ['history', () => fixture('history', 4000, 3000)],
];
for (const f of fixtures.filter(([name]) => !only || only.includes(name)).map(([, make]) => make())) {
  const ours: number[] = [];
  const theirs: number[] = [];
  const clones: number[] = [];
  const nodes: number[] = [];
  const befores: number[] = [];
  for (let i = 0; i < reps; i++) {
    const a = join(work, `${f.name}-cl-${i}`);
    const b = join(work, `${f.name}-raw-${i}`);
    const c = join(work, `${f.name}-clone-${i}`);
    const e = join(work, `${f.name}-before-${i}`);
    // Rotate which goes first so caches favour none.
    const runs = [
      () => ours.push(time(() => chainlens(f, a))),
      () => theirs.push(time(() => raw(f, b))),
      () => clones.push(time(() => clone(f, c))),
      () => nodes.push(time(nodeStart)),
      ...(BEFORE ? [() => befores.push(time(() => chainlens(f, e, BEFORE)))] : []),
    ];
    for (let k = 0; k < runs.length; k++) runs[(i + k) % runs.length]();
    if (i === 0) {
      const rawTree = git(b, 'rev-parse', 'HEAD^{tree}');
      const ourTree = git(a, 'rev-parse', 'HEAD^{tree}');
      if (rawTree !== ourTree) throw new Error(`trees differ: chainlens ${ourTree}, raw git ${rawTree}`);
      const later = git(f.repo, 'rev-list', '-1', '--all', '--not', f.base);
      if (later && spawnSync('git', ['-C', a, 'cat-file', '-e', later]).status === 0)
        throw new Error(`the chainlens work tree holds ${later}, a commit after base`);
    }
    for (const d of [a, b, c, e]) rmSync(d, { recursive: true, force: true });
  }
  const files = git(f.repo, 'ls-files').split('\n').length;
  const commits = git(f.repo, 'rev-list', '--count', '--all');
  const ratio = median(ours) / median(theirs);
  const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} ms`;
  console.log(
    `${f.name} (${files} files, ${commits} commits): chainlens checkout --mode oracle --step 3 ${median(ours).toFixed(0)} ms, (spread ${spread(ours)}), raw git init+fetch base+checkout+(apply+commit per gold step) ${median(theirs).toFixed(0)} ms (spread ${spread(theirs)}), ratio ${ratio.toFixed(2)}; a plain clone+checkout+apply+commit (keeps later history) ${median(clones).toFixed(0)} ms, history-up-to-base costs ${(median(theirs) / median(clones)).toFixed(2)}x a clone; node -e 0 ${median(nodes).toFixed(0)} ms${process.env.NODE_EXTRA_CA_CERTS ? ' (NODE_EXTRA_CA_CERTS is set: Node loads that CA bundle at every start)' : ''} (median of ${reps}, same tree verified)`,
  );
  if (BEFORE)
    console.log(
      `${f.name}: the build at CHAINLENS_BENCH_BEFORE ${median(befores).toFixed(0)} ms (spread ${spread(befores)}), ratio ${(median(befores) / median(theirs)).toFixed(2)} in the same rounds`,
    );
}
rmSync(work, { recursive: true, force: true });
