// Per-step evaluation time: evaluateState (dockerode, one container per evaluation) against the
// raw equivalent, `docker run --rm` of the same image running the same scripts (patch fallback
// chain, test patch, pytest) from a bind mount. Runs are interleaved (A B B A ...) so load from
// other processes hits both sides alike; medians and their ratio are printed (target <= 1.15).
//
//   node --import tsx bench/eval-step.ts [repetitions]
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildEvalBundle, testCommandFor } from '../src/core/evaluation/script';
import { connectDocker, detectRepoPath, evaluateState } from '../src/infra/docker';
import { createToyRepo, FIX, TEST_FILES } from '../test/fixtures/evaluation/toyRepo';

const BASE_IMAGE = 'chainlens/base:bookworm';
const reps = Number(process.argv[2] ?? 7);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function dockerRun(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('docker', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

async function main(): Promise<void> {
  const docker = await connectDocker();
  const repo = createToyRepo();
  const testPatch = repo.diffFor(TEST_FILES);
  const stateDiff = repo.diffFor(FIX);
  const testCmd = testCommandFor({ repo: 'toy/calc', testPatches: [testPatch] });

  // An image holding the repository at /testbed, as SWE-bench and ChainSWE images do.
  const ctx = mkdtempSync(join(tmpdir(), 'chainlens-bench-'));
  cpSync(repo.dir, join(ctx, 'repo'), { recursive: true });
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${BASE_IMAGE}\nCOPY repo /testbed\n`);
  const image = `chainlens-bench/withrepo:${process.pid}`;
  execFileSync('docker', ['build', '-q', '-t', image, ctx], { stdio: 'ignore' });

  // The raw side runs exactly the scripts evaluateState puts into its container.
  const bundle = buildEvalBundle({
    repo: { kind: 'in-image', path: '/testbed', baseCommit: repo.baseCommit },
    stateDiff,
    testPatches: [testPatch],
    testCmd,
  });
  const mount = join(ctx, 'bundle');
  for (const f of bundle.files) {
    const host = join(mount, f.path.replace(/^\/chainlens\//, ''));
    mkdirSync(dirname(host), { recursive: true });
    writeFileSync(host, f.content);
    chmodSync(host, f.mode);
  }
  const logDir = join(ctx, 'logs');

  const firstDetect = performance.now();
  await detectRepoPath(image, repo.baseCommit, docker, 'bench');
  const detectMs = performance.now() - firstDetect;

  const ours = async (i: number) => {
    const t = performance.now();
    const r = await evaluateState({
      image,
      localRepo: repo.dir,
      baseCommit: repo.baseCommit,
      stateDiff,
      testPatches: [testPatch],
      testCmd,
      runId: `bench-${i}`,
      logPath: join(logDir, `${i}.log`),
      docker,
    });
    if (r.exitCode !== 0) throw new Error(`evaluateState did not pass:\n${r.log}`);
    return performance.now() - t;
  };
  const raw = async () => {
    const t = performance.now();
    const r = await dockerRun([
      'run',
      '--rm',
      '--entrypoint',
      '',
      '-v',
      `${mount}:/chainlens:ro`,
      '--label',
      'chainlens.managed=true',
      '--label',
      'chainlens.run=bench-raw',
      image,
      ...bundle.command,
    ]);
    if (!/^>>>>> Test Exit Code: 0$/m.test(r.out)) throw new Error(`docker run did not pass:\n${r.out}`);
    return performance.now() - t;
  };

  await ours(-1);
  await raw();
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < reps; i++) {
    if (i % 2 === 0) {
      a.push(await ours(i));
      b.push(await raw());
    } else {
      b.push(await raw());
      a.push(await ours(i));
    }
  }

  // Copy-in (an image without the repository): reported on its own, it has no raw twin.
  const copyIn: number[] = [];
  for (let i = 0; i < Math.min(3, reps); i++) {
    const t = performance.now();
    const r = await evaluateState({
      image: BASE_IMAGE,
      repoPathInImage: null,
      localRepo: repo.dir,
      baseCommit: repo.baseCommit,
      stateDiff,
      testPatches: [testPatch],
      testCmd,
      runId: `bench-copy-${i}`,
      logPath: join(logDir, `copy-${i}.log`),
      docker,
    });
    if (r.exitCode !== 0) throw new Error(`copy-in evaluation did not pass:\n${r.log}`);
    copyIn.push(performance.now() - t);
  }

  execFileSync('docker', ['rmi', '-f', image], { stdio: 'ignore' });
  rmSync(ctx, { recursive: true, force: true });

  const fmt = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
  const ratio = median(a) / median(b);
  // Each pair ran back to back, so its ratio is less exposed to load that drifts over the run.
  const paired = median(a.map((x, i) => x / b[i]));
  console.log(`eval-step: ${reps} interleaved repetitions, image with the repo at /testbed, toy pytest suite`);
  console.log(`  evaluateState (dockerode)     median ${fmt(median(a))}  [${a.map(fmt).join(', ')}]`);
  console.log(`  docker run (CLI, raw)         median ${fmt(median(b))}  [${b.map(fmt).join(', ')}]`);
  console.log(`  ratio evaluateState / raw     ${ratio.toFixed(3)}  (target <= 1.15) ${ratio <= 1.15 ? 'OK' : 'OVER'}`);
  console.log(`  median of paired ratios       ${paired.toFixed(3)}`);
  console.log(`  first detectRepoPath (cached afterwards)  ${fmt(detectMs)}`);
  console.log(`  copy-in (plain image, repo archived in)   median ${fmt(median(copyIn))}`);
  process.exitCode = ratio <= 1.15 ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 2;
});
