// `chainlens replay --predictions gold --mode seq` of a synthetic chain of N steps (each gold patch
// edits one module of a 200-module repository) against the raw git it stands for: the same
// repository copied up to base (`git init`, `pack-objects --revs | index-pack`), the base checked
// out with the parallel checkout ChainLens uses, then `git apply`, `git add -A`, `git commit` per
// step. Both sides as whole processes, interleaved, in one run; the ratio is per chain length, and
// the per-step figure is the slope between the shortest and the longest chain (what each further
// step costs, start-up taken out).
// CHAINLENS_BENCH_BEFORE=<another build's dist/cli.js> adds that build to the same rounds.
// Run: npm run build && node --import tsx bench/replay.ts [repetitions=7] [step counts=5,20]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { interleave, median, report, timedProcess, type Side } from './lib/interleave';

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist/cli.js');
const BEFORE = process.env.CHAINLENS_BENCH_BEFORE;
const reps = Number(process.argv[2] ?? 7);
const lengths = (process.argv[3] ?? '5,20').split(',').map(Number);
const work = mkdtempSync(join(tmpdir(), 'chainlens-bench-replay-'));
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@b',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@b',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env, maxBuffer: 1 << 28 }).trim();

const MODULES = 200;
const moduleText = (i: number, rev: number) =>
  `"""Module ${i}."""\n\n` +
  Array.from({ length: 40 }, (_, j) => `def f_${j}(x):\n    return x * ${j} + ${j === 20 ? rev : i}\n`).join('\n');

const repo = join(work, 'repo');
mkdirSync(join(repo, 'pkg'), { recursive: true });
git(work, 'init', '-q', repo);
for (let i = 0; i < MODULES; i++) writeFileSync(join(repo, 'pkg', `m${i}.py`), moduleText(i, 0));
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'base');
const base = git(repo, 'rev-parse', 'HEAD');
const longest = Math.max(...lengths);
/** Step k's gold patch edits module k; its test patch adds a test file (applied in containers only). */
const patches: string[] = [];
for (let k = 1; k <= longest; k++) {
  writeFileSync(join(repo, 'pkg', `m${k}.py`), moduleText(k, k));
  patches.push(git(repo, 'diff') + '\n');
  git(repo, 'commit', '-q', '-am', `fix ${k}`);
}
git(repo, 'reset', '-q', '--hard', base);
git(repo, 'repack', '-a', '-d', '-q');

function chainFile(steps: number): string {
  const chain = {
    continuous_id: `bench-replay-${steps}`,
    repo: 'bench/replay',
    base_commit: base,
    docker_image: 'none',
    swebench_instance_ids: patches.slice(0, steps).map((_, k) => `bench__replay-${k + 1}`),
    bug_fixes: patches.slice(0, steps).map((patch, k) => ({
      order: k + 1,
      swebench_instance_id: `bench__replay-${k + 1}`,
      problem_statement: `step ${k + 1}`,
      patch,
      test_patch: `diff --git a/tests/test_${k + 1}.py b/tests/test_${k + 1}.py\nnew file mode 100644\n--- /dev/null\n+++ b/tests/test_${k + 1}.py\n@@ -0,0 +1 @@\n+def test_ok(): pass\n`,
      FAIL_TO_PASS: `['tests/test_${k + 1}.py::test_ok']`,
      PASS_TO_PASS: '[]',
    })),
  };
  const file = join(work, `chain-${steps}.json`);
  writeFileSync(file, JSON.stringify(chain));
  for (let k = 0; k < steps; k++) writeFileSync(join(work, `step-${k + 1}.diff`), patches[k]);
  return file;
}

let n = 0;
async function replay(file: string, steps: number, cli = CLI): Promise<number> {
  const dir = join(work, `w${n++}`);
  const data = join(work, `data${n}`);
  const r = await timedProcess(
    process.execPath,
    [cli, 'replay', file, '--repo', repo, '--dir', dir, '--mode', 'seq', '--predictions', 'gold'],
    { env: { ...env, CHAINLENS_DATA: data, CHAINLENS_CACHE: join(work, 'cache') } },
  );
  if (r.code !== 0) throw new Error(`chainlens replay failed: ${r.stderr}`);
  const count = Number(git(dir, 'rev-list', '--count', 'HEAD', '--not', base));
  if (count !== steps) throw new Error(`replay made ${count} commits, not ${steps}`);
  rmSync(dir, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
  return r.ms;
}

async function raw(steps: number): Promise<number> {
  const dir = join(work, `w${n++}`);
  const script = [
    'set -e',
    'git init -q "$1"',
    'git -C "$2" pack-objects --revs --stdout --quiet <<<"$3" | git -C "$1" index-pack --stdin >/dev/null',
    'git -C "$1" -c checkout.workers=0 checkout -q -b run "$3"',
    'for ((k = 1; k <= $4; k++)); do git -C "$1" apply "$5/step-$k.diff"; git -C "$1" add -A; git -C "$1" commit -q -m "step $k"; done',
  ].join('\n');
  const r = await timedProcess('bash', ['-c', script, 'bash', dir, repo, base, String(steps), work], { env });
  if (r.code !== 0) throw new Error(`raw git failed: ${r.stderr}`);
  rmSync(dir, { recursive: true, force: true });
  return r.ms;
}

async function main(): Promise<void> {
  const files = new Map(lengths.map((s) => [s, chainFile(s)]));
  const sides: Side[] = lengths.flatMap((s) => [
    { name: `chainlens replay, ${s} steps`, run: () => replay(files.get(s)!, s) },
    { name: `raw git, ${s} steps`, run: () => raw(s) },
    ...(BEFORE ? [{ name: `the build before, ${s} steps`, run: () => replay(files.get(s)!, s, BEFORE) }] : []),
  ]);
  for (const s of lengths) await replay(files.get(s)!, s); // warm-up, and a check that it replays
  const load = loadavg()[0].toFixed(1);
  const measured = await interleave(sides, reps);
  for (const s of lengths)
    console.log(
      report(
        `replay --mode seq --predictions gold, ${s} steps (median of ${reps}, load ${load} to ${loadavg()[0].toFixed(1)})`,
        measured.filter((m) => m.name.endsWith(` ${s} steps`)),
        `raw git, ${s} steps`,
      ),
    );
  if (lengths.length > 1) {
    const [lo, hi] = [Math.min(...lengths), Math.max(...lengths)];
    const med = (name: string) => median(measured.find((m) => m.name === name)!.ms);
    const slope = (side: string) => (med(`${side}, ${hi} steps`) - med(`${side}, ${lo} steps`)) / (hi - lo);
    const ours = slope('chainlens replay');
    const theirs = slope('raw git');
    console.log(
      `per further step: chainlens ${ours.toFixed(0)} ms, raw git ${theirs.toFixed(0)} ms, ratio ${(ours / theirs).toFixed(2)}` +
        (BEFORE
          ? `; the build before ${slope('the build before').toFixed(0)} ms, ${(slope('the build before') / theirs).toFixed(2)}`
          : ''),
    );
  }
}

main()
  .catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
