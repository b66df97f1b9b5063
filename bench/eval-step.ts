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
// The SWE-bench harness joins the image-holding group when SWEBENCH_PYTHON names a Python that
// can import it (`SWEBENCH_PYTHON=python3`, with PYTHONPATH as that needs): its run_evaluation on
// a one-row dataset file naming the same image, with the same eval script in the harness's form
// and the gold patch as the prediction. Its process time and its time to report.json are set
// against ChainLens's process time and ChainLens's time to its result line and to its
// report.json. Without it the harness is reported as skipped. CHAINLENS_BENCH_BEFORE=<another
// build's dist/cli.js> adds that build to both groups' rounds (before and after in one run).
//
//   npm run build && node --import tsx bench/eval-step.ts [repetitions]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { loadChain } from '../src/core/formats/loadChain';
import { buildEvalBundle, buildCommandFor, testCommandFor } from '../src/core/evaluation/script';
import { performance } from 'node:perf_hooks';
import { interleave, median, report, timedProcess } from './lib/interleave';

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist/cli.js');
/** Another build's dist/cli.js (an earlier commit's, say), measured in the same rounds. */
const BEFORE = process.env.CHAINLENS_BENCH_BEFORE;
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
  // Beside each ChainLens run's process time: when its result line came (stderr), and when its
  // report.json was written, both from the spawn.
  const toResult: Record<string, number[]> = {};
  const toReport: Record<string, number[]> = {};
  const ours =
    (image: string, cli = CLI) =>
    async () => {
      const started = performance.now();
      const wall = Date.now();
      let resultAt = NaN;
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((done, fail) => {
        const child = spawn(
          process.execPath,
          [cli, 'eval', CHAIN, '--repo', repo, '--dir', join(work, `w${runs++}`), '--mode', 'oracle'].concat([
            '--predictions',
            'gold',
            '--steps',
            '1',
            '--image',
            image,
          ]),
          { env, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => {
          stderr += d;
          if (Number.isNaN(resultAt) && /^step 1: \w+ \(F2P/m.test(stderr)) resultAt = performance.now() - started;
        });
        child.on('error', fail);
        child.on('close', (code) => done({ code, stdout, stderr, ms: performance.now() - started }));
      });
      if (r.code !== 0 || !/resolved 1\/1 step/.test(r.stdout))
        throw new Error(`chainlens eval failed:\n${r.stdout}${r.stderr}`);
      const logPath = /log: (.*run_instance\.log)$/m.exec(r.stderr)?.[1];
      if (cli !== CLI) return r.ms;
      (toResult[image] ??= []).push(resultAt);
      if (logPath) (toReport[image] ??= []).push(statSync(join(dirname(logPath), 'report.json')).mtimeMs - wall);
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
  const bundleInput: Parameters<typeof buildEvalBundle>[0] = {
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
  };
  const bundle = buildEvalBundle(bundleInput);
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

  // The SWE-bench harness (when SWEBENCH_PYTHON can import it): run_evaluation on a one-row dataset
  // naming the image that holds the repository, with the same eval script in the harness's form
  // (the test patch inline as a heredoc, no exit-code lines: the harness adds them).
  const swebenchPython = process.env.SWEBENCH_PYTHON;
  const harnessProblem = !swebenchPython
    ? 'SWEBENCH_PYTHON is not set'
    : spawnSync(swebenchPython, ['-c', 'import swebench.harness.run_evaluation'], { encoding: 'utf8' }).status !== 0
      ? `${swebenchPython} cannot import swebench.harness.run_evaluation`
      : null;
  const harnessDir = join(work, 'harness');
  const harnessToReport: number[] = [];
  if (!harnessProblem) {
    const v4 = buildEvalBundle({ ...bundleInput, profile: 'v4' });
    const script = v4.files.find((f) => f.path === '/chainlens/eval.sh')!.content;
    const patch = first.testPatch.endsWith('\n') ? first.testPatch : first.testPatch + '\n';
    const row = {
      instance_id: first.instanceId,
      image: withRepo,
      repo: chainDoc.repo,
      version: first.version ?? '0',
      base_commit: chainDoc.baseCommit,
      patch: first.goldPatch,
      FAIL_TO_PASS: first.failToPass,
      PASS_TO_PASS: first.passToPass,
      log_parser: 'parse_log_pytest',
      eval_type: 'pass_and_fail',
      eval_script: script.replace(
        'git apply -v /chainlens/test_patch_1.diff',
        `git apply -v - <<'EOF_114329324912'\n${patch}EOF_114329324912`,
      ),
    };
    mkdirSync(harnessDir, { recursive: true });
    writeFileSync(join(harnessDir, 'dataset.json'), JSON.stringify([row]));
    writeFileSync(
      join(harnessDir, 'preds.json'),
      JSON.stringify([{ instance_id: first.instanceId, model_patch: first.goldPatch, model_name_or_path: 'gold' }]),
    );
  }
  let harnessRuns = 0;
  const harness = async () => {
    const cwd = join(harnessDir, `r${harnessRuns++}`);
    mkdirSync(cwd);
    const wall = Date.now();
    const r = await timedProcess(
      swebenchPython!,
      ['-m', 'swebench.harness.run_evaluation', '--dataset_name', join(harnessDir, 'dataset.json')].concat([
        '--predictions_path',
        join(harnessDir, 'preds.json'),
        '--run_id',
        `bench${harnessRuns}`,
        '--max_workers',
        '1',
      ]),
      { cwd },
    );
    const reportJson = join(cwd, 'logs/run_evaluation', `bench${harnessRuns}`, 'gold', first.instanceId, 'report.json');
    const written = JSON.parse(readFileSync(reportJson, 'utf8')) as Record<string, { resolved: boolean }>;
    if (r.code !== 0 || !written[first.instanceId]?.resolved)
      throw new Error(`the harness did not resolve the step:\n${r.stdout}${r.stderr}`);
    harnessToReport.push(statSync(reportJson).mtimeMs - wall);
    return r.ms;
  };

  try {
    // The first evaluation of each image runs the repository probe; its answer is kept on disk.
    const firstCopyIn = await ours(BASE_IMAGE)();
    const firstInImage = await ours(withRepo)();
    if (BEFORE) {
      await ours(BASE_IMAGE, BEFORE)();
      await ours(withRepo, BEFORE)();
    }
    await rawCopyIn();
    await rawInImage();
    await rawEvalScript();
    if (!harnessProblem) await harness();
    harnessToReport.length = 0;
    // The timings of those first runs (the probe's) are not the rounds'.
    for (const kept of [toResult, toReport]) for (const k of Object.keys(kept)) delete kept[k];
    const copyIn = await interleave(
      [
        { name: 'chainlens eval --steps 1', run: ours(BASE_IMAGE) },
        ...(BEFORE
          ? [{ name: 'chainlens eval, the build in CHAINLENS_BENCH_BEFORE', run: ours(BASE_IMAGE, BEFORE) }]
          : []),
        { name: 'raw git archive | docker run -i', run: rawCopyIn },
      ],
      reps,
    );
    const inImage = await interleave(
      [
        { name: 'chainlens eval --steps 1', run: ours(withRepo) },
        ...(BEFORE
          ? [{ name: 'chainlens eval, the build in CHAINLENS_BENCH_BEFORE', run: ours(withRepo, BEFORE) }]
          : []),
        { name: 'raw docker run', run: rawInImage },
        { name: 'raw docker run of the same eval script', run: rawEvalScript },
        ...(harnessProblem ? [] : [{ name: 'SWE-bench harness run_evaluation', run: harness }]),
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
    const ms = (xs: number[] | undefined) => (xs?.length ? `${(median(xs) / 1000).toFixed(2)} s` : 'n/a');
    for (const [kind, image] of [
      ['copied in', BASE_IMAGE],
      ['in the image', withRepo],
    ] as const)
      console.log(
        `  chainlens, repository ${kind}: result line at ${ms(toResult[image])}, report.json at ${ms(toReport[image])} (medians)`,
      );
    if (harnessProblem) console.log(`  SWE-bench harness: skipped (${harnessProblem})`);
    else {
      console.log(
        report('  against the SWE-bench harness process, same image', inImage, 'SWE-bench harness run_evaluation'),
      );
      console.log(`  SWE-bench harness: report.json at ${ms(harnessToReport)} (median)`);
    }
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
