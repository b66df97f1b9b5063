// `chainlens eval --steps 1` on the demo chain, as a user runs it (the built CLI, a process that
// checks the chain out, replays step 1, evaluates it and exits), against the raw floor for the
// same evaluation, also run as processes from a shell: for an image without the repository,
// `git archive | docker run -i … tar x; git apply (state); git apply (tests); pytest`; for an
// image holding it at /testbed, `docker run … git apply ×2; pytest`, and `docker run` of the very
// eval script ChainLens puts into its container (patch fallback chain, test files reset, test
// patch, the test command between markers: docs/reference/grading.md), which is what an image
// holding the repository is measured against. Each side pays its own start
// (node, the docker CLI). The repository probe is included: the first evaluation of an image
// runs it (reported on its own), later ones read its answer from the data directory.
// Interleaved A B B A ..., median and spread, ratio of medians (bench/lib/interleave.ts).
//
//   npm run build && node --import tsx bench/eval-step.ts [repetitions]
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { loadChain } from '../src/core/formats/loadChain';
import { buildEvalBundle, buildCommandFor, testCommandFor } from '../src/core/evaluation/script';
import { interleave, report, timedProcess } from './lib/interleave';

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist/cli.js');
const CHAIN = join(ROOT, 'demo/chain.json');
const BASE_IMAGE = 'chainlens/base:bookworm';
const reps = Number(process.argv[2] ?? 5);
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

interface DemoStep {
  patch: string;
  test_patch: string;
  test_cmds: string;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'chainlens-bench-eval-'));
  const repo = join(work, 'invoicekit');
  execFileSync('bash', [join(ROOT, 'scripts/build-demo-repo.sh'), repo], { stdio: 'ignore' });
  const chain = JSON.parse(readFileSync(CHAIN, 'utf8')) as { base_commit: string; bug_fixes: DemoStep[] };
  const step = chain.bug_fixes[0];

  // An image holding the repository at /testbed, as SWE-bench images do.
  const ctx = join(work, 'ctx');
  cpSync(repo, join(ctx, 'repo'), { recursive: true });
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${BASE_IMAGE}\nCOPY repo /testbed\n`);
  const withRepo = `chainlens-bench/withrepo:${process.pid}`;
  execFileSync('docker', ['build', '-q', '-t', withRepo, ctx], { stdio: 'ignore' });

  const env = { ...process.env, CHAINLENS_DATA: join(work, 'data'), STATE: step.patch, TESTP: step.test_patch };
  const passed = /^>>>>> Test Exit Code: 0$|=+ .*\d+ passed.* =+$/m;
  let runs = 0;
  const ours = (image: string) => async () => {
    const r = await timedProcess(
      process.execPath,
      [
        CLI,
        'eval',
        CHAIN,
        '--repo',
        repo,
        '--dir',
        join(work, `w${runs++}`),
        '--mode',
        'oracle',
        '--predictions',
        'gold',
        '--steps',
        '1',
        '--image',
        image,
      ],
      { env },
    );
    if (r.code !== 0 || !/resolved 1\/1 step/.test(r.stdout))
      throw new Error(`chainlens eval failed:\n${r.stdout}${r.stderr}`);
    return r.ms;
  };
  const inContainer = `git apply <<<"$STATE" && git apply <<<"$TESTP" && ${step.test_cmds}`;
  const rawCopyIn = async () => {
    const script = `git -C ${shq(repo)} archive ${chain.base_commit} | docker run --rm -i -e STATE -e TESTP --entrypoint '' ${BASE_IMAGE} bash -c ${shq(`mkdir -p /r && cd /r && tar -x -f - && ${inContainer}`)}`;
    const r = await timedProcess('bash', ['-c', script], { env });
    if (r.code !== 0 || !passed.test(r.stdout)) throw new Error(`raw copy-in failed:\n${r.stdout}${r.stderr}`);
    return r.ms;
  };
  const rawInImage = async () => {
    const r = await timedProcess(
      'docker',
      [
        'run',
        '--rm',
        '-e',
        'STATE',
        '-e',
        'TESTP',
        '--entrypoint',
        '',
        withRepo,
        'bash',
        '-c',
        `cd /testbed && ${inContainer}`,
      ],
      { env },
    );
    if (r.code !== 0 || !passed.test(r.stdout)) throw new Error(`raw in-image failed:\n${r.stdout}${r.stderr}`);
    return r.ms;
  };

  // ChainLens's own eval script for the step, on disk for a bind mount (ChainLens streams the same
  // files in as a tar on the container's stdin).
  const chainDoc = loadChain(CHAIN, readFileSync(CHAIN, 'utf8'));
  const first = chainDoc.steps[0];
  const bundle = buildEvalBundle({
    repo: { kind: 'in-image', path: '/testbed', baseCommit: chainDoc.baseCommit },
    stateDiff: first.goldPatch,
    testPatches: [first.testPatch],
    testCmd: testCommandFor({
      repo: chainDoc.repo,
      version: first.version,
      testCmds: first.testCmd,
      testPatches: [first.testPatch],
      testFiles: first.testFiles,
      instanceId: first.instanceId,
    }),
    profile: 'v5',
    shape: 'python',
    buildCmd: buildCommandFor({ repo: chainDoc.repo, version: first.version, buildCmd: first.buildCmd }),
  });
  const bundleDir = join(work, 'bundle');
  for (const f of bundle.files) {
    const host = join(bundleDir, f.path.replace(/^\/chainlens\//, ''));
    mkdirSync(dirname(host), { recursive: true });
    writeFileSync(host, f.content);
    chmodSync(host, f.mode);
  }
  const rawEvalScript = async () => {
    const r = await timedProcess('docker', [
      'run',
      '--rm',
      '--entrypoint',
      '',
      '-v',
      `${bundleDir}:/chainlens:ro`,
      withRepo,
      ...bundle.command,
    ]);
    if (!/^>>>>> Test Exit Code: 0$/m.test(r.stdout + r.stderr))
      throw new Error(`raw eval script failed:\n${r.stdout}${r.stderr}`);
    return r.ms;
  };

  try {
    // The first evaluation of each image runs the repository probe; its answer is kept on disk.
    const firstCopyIn = await ours(BASE_IMAGE)();
    const firstInImage = await ours(withRepo)();
    await rawCopyIn();
    await rawInImage();
    await rawEvalScript();
    const copyIn = await interleave(
      [
        { name: 'chainlens eval --steps 1', run: ours(BASE_IMAGE) },
        { name: 'raw git archive | docker run -i', run: rawCopyIn },
      ],
      reps,
    );
    const inImage = await interleave(
      [
        { name: 'chainlens eval --steps 1', run: ours(withRepo) },
        { name: 'raw docker run', run: rawInImage },
        { name: 'raw docker run of the same eval script', run: rawEvalScript },
      ],
      reps,
    );
    console.log(
      report(
        `eval-step, demo step 1, image without the repository (copied in), ${reps} rounds`,
        copyIn,
        'raw git archive | docker run -i',
      ),
    );
    console.log(
      report(
        `eval-step, demo step 1, image holding the repository at /testbed, ${reps} rounds`,
        inImage,
        'raw docker run of the same eval script',
      ),
    );
    console.log(report('  the same, against the bare pipeline', inImage, 'raw docker run'));
    console.log(
      `  first eval of each image (runs the repository probe): copy-in ${(firstCopyIn / 1000).toFixed(2)} s, in-image ${(firstInImage / 1000).toFixed(2)} s`,
    );
  } finally {
    execFileSync('docker', ['rmi', '-f', withRepo], { stdio: 'ignore' });
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 2;
});
