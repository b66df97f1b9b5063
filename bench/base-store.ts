// The base store (docs/run-state.md, "The work tree's repository"): `chainlens checkout` of a
// repository with a long history, the first time a base is checked out (the store is made: a cache
// of its own each round) and the second time (the cache already holds the store: the history is
// borrowed, not copied), against the raw git commands that copy the same history up to base and
// check it out (`git init`, `pack-objects --revs | index-pack`, `checkout` with the parallel
// checkout ChainLens uses: equal options), and against a local `git clone` (hard links, but it
// carries every later commit), all measured interleaved in one run. The repository: the demo,
// 4,000 vendored files and 3,000 commits before base (by default), a tenth of that after it.
// Run: npm run build && node --import tsx bench/base-store.ts [repetitions] [files] [commits]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { interleave, report, timedProcess, type Side } from './lib/interleave';

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist/cli.js');
const reps = Number(process.argv[2] ?? 7);
const files = Number(process.argv[3] ?? 4000);
const commits = Number(process.argv[4] ?? 3000);
const work = mkdtempSync(join(tmpdir(), 'chainlens-bench-base-store-'));
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@b',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@b',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env, maxBuffer: 1 << 28 }).trim();

/** `count` commits, each rewriting one vendored file, in one git fast-import. */
function addHistory(repo: string, count: number, marker: string): void {
  const head = git(repo, 'rev-parse', 'HEAD');
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = `# ${marker} revision ${i}\n\ndef rev():\n    return ${i}\n`;
    const message = `${marker} ${i}`;
    lines.push(
      'commit refs/heads/main',
      `committer b <b@b> ${1_700_000_000 + i} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
      ...(i === 0 ? [`from ${head}`] : []),
      `M 100644 inline vendor/pkg${i % 80}/module_${(i * 7) % files}.py`,
      `data ${Buffer.byteLength(body)}`,
      body,
    );
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, input: lines.join('\n') + '\n' });
  git(repo, 'reset', '-q', '--hard', 'main');
}

const repo = join(work, 'repo');
execFileSync('bash', [join(ROOT, 'scripts/build-demo-repo.sh'), repo], { stdio: 'ignore' });
for (let i = 0; i < files; i++) {
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
addHistory(repo, commits, 'history');
const base = git(repo, 'rev-parse', 'HEAD');
addHistory(repo, Math.round(commits / 10), 'future');
git(repo, 'repack', '-a', '-d', '-q');
const chain = JSON.parse(readFileSync(join(ROOT, 'demo/chain.json'), 'utf8'));
chain.base_commit = base;
const chainFile = join(work, 'chain.json');
writeFileSync(chainFile, JSON.stringify(chain));
const later = git(repo, 'rev-parse', 'main');

const warmCache = join(work, 'cache-warm');
let n = 0;
const fresh = () => join(work, `w${n++}`);

async function checkout(cache: string, check: boolean): Promise<number> {
  const dir = fresh();
  const data = join(work, `data${n}`);
  const r = await timedProcess(process.execPath, [CLI, 'checkout', chainFile, '--repo', repo, '--dir', dir], {
    env: { ...env, CHAINLENS_CACHE: cache, CHAINLENS_DATA: data },
  });
  if (r.code !== 0) throw new Error(`chainlens checkout failed: ${r.stderr}`);
  if (check) {
    if (git(dir, 'rev-list', '--all') !== git(repo, 'rev-list', base))
      throw new Error('the work tree holds other history');
    if (git(dir, 'fsck', '--unreachable', '--no-reflogs') !== '')
      throw new Error('unreachable objects in the work tree');
    try {
      git(dir, 'cat-file', '-e', later);
      throw new Error('a later commit is in the work tree');
    } catch (e) {
      if (e instanceof Error && e.message.startsWith('a later')) throw e;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
  return r.ms;
}

async function rawCopy(): Promise<number> {
  const dir = fresh();
  const script = `set -e; git init -q "$1"; git -C "$2" pack-objects --revs --stdout --quiet <<<"$3" | git -C "$1" index-pack --stdin >/dev/null; git -C "$1" update-ref refs/base "$3"; git -C "$1" -c checkout.workers=0 checkout -q -b run "$3"`;
  const r = await timedProcess('bash', ['-c', script, 'bash', dir, repo, base], { env });
  if (r.code !== 0) throw new Error(`raw copy failed: ${r.stderr}`);
  rmSync(dir, { recursive: true, force: true });
  return r.ms;
}

async function localClone(): Promise<number> {
  const dir = fresh();
  const r = await timedProcess(
    'bash',
    [
      '-c',
      'set -e; git clone -q --no-checkout "$2" "$1"; git -C "$1" -c checkout.workers=0 checkout -q -b run "$3"',
      'bash',
      dir,
      repo,
      base,
    ],
    { env },
  );
  if (r.code !== 0) throw new Error(`clone failed: ${r.stderr}`);
  rmSync(dir, { recursive: true, force: true });
  return r.ms;
}

async function main(): Promise<void> {
  await checkout(warmCache, true); // makes the warm cache's store, and checks what a work tree holds
  const sides: Side[] = [
    { name: 'chainlens checkout, second run of the base (store borrowed)', run: () => checkout(warmCache, false) },
    { name: 'chainlens checkout, first run of the base (store made)', run: () => checkout(fresh(), false) },
    { name: 'raw git init + pack-objects|index-pack + checkout', run: rawCopy },
    { name: 'git clone (local, hard links; keeps later history) + checkout', run: localClone },
  ];
  const load = loadavg()[0].toFixed(1);
  const measured = await interleave(sides, reps);
  console.log(
    report(
      `base store, ${files} files, ${commits} commits before base (median of ${reps}, load ${load} to ${loadavg()[0].toFixed(1)})`,
      measured,
      'raw git init + pack-objects|index-pack + checkout',
    ),
  );
}

main()
  .catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
