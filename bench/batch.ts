// A whole batch against the raw tool: `chainlens batch` on 3 chains x 2 modes x 2 prediction
// sources (36 graded steps: the demo chain and two generated chains on a larger repository),
// `--workers 2`, against the same 36 steps run as plain `docker run --rm` through `xargs -P 2`,
// each with the very scripts ChainLens puts into its containers (patch fallback chain, test
// patches, pytest). Both sides use images holding the repository at /testbed, as SWE-bench
// images do. Runs are interleaved (A B B A ...); medians and their ratio are printed (target <= 1.15).
// With `swarm` as the third argument, the same batch with `--engine swarm` (each step a Swarm job
// service, docs/scaling.md) runs in the same repetitions and its ratio to the raw side is printed
// next to it. The engine must already be a swarm manager: the bench never runs `docker swarm init`
// (or `leave`) on the engine it is given, which may be the person's own.
//
// CHAINLENS_BENCH_BEFORE=<another build's dist/cli.js> adds that build's batch to the same
// repetitions (before and after in one run).
//
//   node --import tsx bench/batch.ts [repetitions=3] [extra files in the larger repository=400] [no-swarm|swarm]
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Chain } from '../src/protocol/chain';
import { loadChain } from '../src/core/formats/loadChain';
import { buildEvalBundle, buildCommandFor, testCommandFor } from '../src/core/evaluation/script';
import { parserForRepo, PYTHON_LOG_PARSERS } from '../src/core/evaluation/grading';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const reps = Number(process.argv[2] ?? 3);
const extraFiles = Number(process.argv[3] ?? 400);
const withSwarm = (process.argv[4] ?? 'no-swarm') === 'swarm';
const cli = join(root, 'dist', 'cli.js');
/** Another build's dist/cli.js (an earlier commit's, say), measured in the same repetitions. */
const before = process.env.CHAINLENS_BENCH_BEFORE;

const git = (cwd: string, args: string[], input?: string) =>
  execFileSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@x',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@x',
    },
  });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function run(cmd: string, args: string[], opts: { cwd?: string; stdin?: string } = {}): Promise<string> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', rej);
    child.on('close', (code) =>
      code === 0 ? res(out) : rej(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out.slice(-3000)}`)),
    );
    child.stdin.end(opts.stdin ?? '');
  });
}

interface ChainSetup {
  doc: Record<string, unknown>;
  repo: string;
  image: string;
}

/** The demo chain, or a copy of it on the demo repository grown by `extra` generated modules. */
function makeChain(work: string, demoRepo: string, name: string, extra: number): ChainSetup {
  const demo = JSON.parse(readFileSync(join(root, 'demo', 'chain.json'), 'utf8')) as Record<string, unknown> & {
    bug_fixes: Record<string, unknown>[];
  };
  const repo = join(work, `repo-${name}`);
  git(work, ['-c', 'advice.detachedHead=false', 'clone', '-q', demoRepo, repo]);
  git(repo, ['-c', 'advice.detachedHead=false', 'checkout', '-q', demo.base_commit as string]);
  if (extra > 0) {
    for (let i = 0; i < extra; i++) {
      const dir = join(repo, 'vendor_pkg', `m${Math.floor(i / 50)}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, `mod_${i}.py`),
        Array.from({ length: 40 }, (_, j) => `def f_${i}_${j}(x):\n    return x * ${j} + ${i}\n`).join('\n'),
      );
    }
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-qm', `vendor ${extra} modules`]);
  }
  const base = git(repo, ['rev-parse', 'HEAD']).trim();
  const suffix = name === 'demo' ? '' : `-${name}`;
  const image = `chainlens-bench/batch-${name}:${process.pid}`;
  const ctx = join(work, `ctx-${name}`);
  mkdirSync(ctx);
  git(work, ['-c', 'advice.detachedHead=false', 'clone', '-q', repo, join(ctx, 'testbed')]);
  git(join(ctx, 'testbed'), ['checkout', '-q', base]);
  writeFileSync(join(ctx, 'Dockerfile'), 'FROM chainlens/base:bookworm\nCOPY testbed /testbed\n');
  execFileSync('docker', ['build', '-q', '-t', image, ctx], { stdio: 'ignore' });
  const doc = {
    ...demo,
    continuous_id: `${demo.continuous_id as string}${suffix}`,
    base_commit: base,
    docker_image: image,
    swebench_instance_ids: (demo.swebench_instance_ids as string[]).map((id) => `${id}${suffix}`),
    bug_fixes: demo.bug_fixes.map((f) => ({
      ...f,
      swebench_instance_id: `${f.swebench_instance_id as string}${suffix}`,
    })),
  };
  return { doc, repo, image };
}

/** The repository state each step is graded on, as ChainLens's run engine builds it (Seq / Oracle). */
function stateDiffs(repo: string, chain: Chain, patches: (string | null)[], mode: 'seq' | 'oracle'): string[] {
  const diffs: string[] = [];
  const apply = (patch: string) => {
    if (!patch.trim()) return;
    git(repo, ['apply', '--index', '-'], patch);
    git(repo, ['commit', '-qm', 'step', '--allow-empty']);
  };
  chain.steps.forEach((_, k) => {
    git(repo, ['-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', chain.baseCommit]);
    const earlier = mode === 'seq' ? patches.slice(0, k) : chain.steps.slice(0, k).map((s) => s.goldPatch);
    for (const p of earlier) apply(p ?? '');
    apply(patches[k] ?? '');
    diffs.push(git(repo, ['diff', '--binary', chain.baseCommit, 'HEAD']));
  });
  return diffs;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'chainlens-bench-batch-'));
  const demoRepo = join(work, 'invoicekit');
  execFileSync('bash', [join(root, 'scripts', 'build-demo-repo.sh'), demoRepo], { stdio: 'ignore' });
  const setups = [
    makeChain(work, demoRepo, 'demo', 0),
    makeChain(work, demoRepo, 'large1', extraFiles),
    makeChain(work, demoRepo, 'large2', extraFiles),
  ];
  const dataset = join(work, 'dataset.jsonl');
  writeFileSync(dataset, setups.map((s) => JSON.stringify(s.doc)).join('\n') + '\n');
  const demoPreds = readFileSync(join(root, 'demo', 'predictions-undershoot.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { instance_id: string; model_patch: string; model_name_or_path: string });
  const predictions = join(work, 'agent.jsonl');
  writeFileSync(
    predictions,
    setups
      .flatMap((s, i) =>
        demoPreds.map((p) => ({
          ...p,
          instance_id: `${p.instance_id}${i === 0 ? '' : `-${i === 1 ? 'large1' : 'large2'}`}`,
        })),
      )
      .map((p) => JSON.stringify(p))
      .join('\n') + '\n',
  );

  // The raw side: every step's bundle on disk, and one `docker run` line per step for xargs.
  const lines: string[] = [];
  setups.forEach((s, i) => {
    const chain = loadChain('chain.json', JSON.stringify(s.doc));
    const byId = new Map(
      demoPreds.map((p) => [`${p.instance_id}${i === 0 ? '' : `-${i === 1 ? 'large1' : 'large2'}`}`, p.model_patch]),
    );
    const sources: Record<string, (string | null)[]> = {
      agent: chain.steps.map((st) => byId.get(st.instanceId) ?? null),
      gold: chain.steps.map((st) => st.goldPatch),
    };
    const scratch = join(work, `scratch-${i}`);
    git(work, ['-c', 'advice.detachedHead=false', 'clone', '-q', s.repo, scratch]);
    for (const [source, patches] of Object.entries(sources))
      for (const mode of ['oracle', 'seq'] as const) {
        const diffs = stateDiffs(scratch, chain, patches, mode);
        chain.steps.forEach((step, k) => {
          const bundle = buildEvalBundle({
            repo: { kind: 'in-image', path: '/testbed', baseCommit: chain.baseCommit },
            stateDiff: diffs[k],
            testPatches: chain.steps
              .slice(0, k + 1)
              .map((x) => x.testPatch)
              .filter((p) => p.trim() !== ''),
            testCmd: testCommandFor({
              repo: chain.repo,
              version: step.version,
              testCmds: step.testCmd,
              testPatches: [step.testPatch],
              testFiles: step.testFiles,
              instanceId: step.instanceId,
            }),
            profile: 'v5',
            shape: PYTHON_LOG_PARSERS.has(step.logParser ?? parserForRepo(chain.repo)) ? 'python' : 'common',
            buildCmd: buildCommandFor({ repo: chain.repo, version: step.version, buildCmd: step.buildCmd }),
          });
          const dir = join(work, 'raw', `${i}-${source}-${mode}-${k}`);
          for (const f of bundle.files) {
            const host = join(dir, f.path.replace(/^\/chainlens\//, ''));
            mkdirSync(dirname(host), { recursive: true });
            writeFileSync(host, f.content);
            chmodSync(host, f.mode);
          }
          // Beside the bundle, not in it: the bundle has a run.sh of its own.
          const script = `${dir}.sh`;
          const quoted = bundle.command.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
          writeFileSync(
            script,
            `docker run --rm --entrypoint '' -v ${dir}:/chainlens:ro --label chainlens.managed=true --label chainlens.run=bench-raw ${s.image} ${quoted} > ${dir}.log 2>&1 || true\n`,
          );
          lines.push(script);
        });
      }
  });
  const list = join(work, 'raw-steps.txt');
  writeFileSync(list, lines.join('\n') + '\n');

  const ours = async (i: number, engine: 'local' | 'swarm' = 'local', bin = cli) => {
    const runDir = join(work, `run-${engine}-${bin === cli ? 'this' : 'before'}-${i}`);
    const t = performance.now();
    await run('node', [
      bin,
      'batch',
      dataset,
      '--run-dir',
      runDir,
      '--repo',
      join(work, 'union'),
      '--predictions',
      `agent=${predictions}`,
      '--predictions',
      'gold',
      '--workers',
      '2',
      '--repo-path-in-image',
      '/testbed',
      '--engine',
      engine,
      '--json',
    ]);
    const ms = performance.now() - t;
    const recs = execFileSync('find', [join(runDir, 'records'), '-name', '*.json'])
      .toString()
      .trim()
      .split('\n');
    if (recs.length !== lines.length)
      throw new Error(`chainlens batch recorded ${recs.length} steps, expected ${lines.length}`);
    rmSync(runDir, { recursive: true, force: true });
    return ms;
  };
  // One repository holding every chain's base commit (the chains share the demo's repository name).
  const union = join(work, 'union');
  git(work, ['-c', 'advice.detachedHead=false', 'clone', '-q', demoRepo, union]);
  for (const s of setups.slice(1))
    git(union, [
      'fetch',
      '-q',
      s.repo,
      `${s.doc.base_commit as string}:refs/heads/${s.image.split('/')[1].split(':')[0]}`,
    ]);

  const raw = async () => {
    const t = performance.now();
    await run('sh', ['-c', `xargs -P 2 -n 1 sh < ${list}`]);
    const ms = performance.now() - t;
    for (const l of lines) {
      const log = readFileSync(l.replace(/\.sh$/, '.log'), 'utf8');
      if (!/^>>>>> Test Exit Code: \d+$/m.test(log) && !/Test Exit Code/.test(log))
        throw new Error(`raw step did not run its tests: ${l}\n${log.slice(-2000)}`);
    }
    return ms;
  };

  const swarmState = () =>
    execFileSync('docker', ['info', '--format', '{{.Swarm.LocalNodeState}}'], { encoding: 'utf8' }).trim();
  if (withSwarm && swarmState() !== 'active')
    throw new Error("the engine is not in swarm mode: run `docker swarm init` on it first, or leave out 'swarm'");

  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  const d: number[] = [];
  for (let i = 0; i < reps; i++) {
    if (i % 2 === 0) {
      a.push(await ours(i));
      b.push(await raw());
      if (before) d.push(await ours(i, 'local', before));
      if (withSwarm) c.push(await ours(i, 'swarm'));
    } else {
      if (withSwarm) c.push(await ours(i, 'swarm'));
      if (before) d.push(await ours(i, 'local', before));
      b.push(await raw());
      a.push(await ours(i));
    }
    console.log(
      `  repetition ${i + 1}: chainlens batch ${(a[i] / 1000).toFixed(1)} s, raw ${(b[i] / 1000).toFixed(1)} s` +
        (withSwarm ? `, --engine swarm ${(c[i] / 1000).toFixed(1)} s` : ''),
    );
  }
  for (const s of setups) execFileSync('docker', ['rmi', '-f', s.image], { stdio: 'ignore' });
  rmSync(work, { recursive: true, force: true });
  const fmt = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const ratio = median(a) / median(b);
  const paired = median(a.map((x, i) => x / b[i]));
  console.log(
    `batch: ${lines.length} steps (3 chains x 2 modes x 2 sources), --workers 2 vs xargs -P 2, ${reps} interleaved repetitions`,
  );
  console.log(`  chainlens batch        median ${fmt(median(a))}  [${a.map(fmt).join(', ')}]`);
  console.log(`  docker run via xargs   median ${fmt(median(b))}  [${b.map(fmt).join(', ')}]`);
  console.log(
    `  ratio                  ${ratio.toFixed(3)} (paired median ${paired.toFixed(3)}; target <= 1.15) ${ratio <= 1.15 ? 'OK' : 'OVER'}`,
  );
  if (before)
    console.log(
      `  the build in CHAINLENS_BENCH_BEFORE  median ${fmt(median(d))}  [${d.map(fmt).join(', ')}], ratio ${(median(d) / median(b)).toFixed(3)} (paired median ${median(d.map((x, i) => x / b[i])).toFixed(3)})`,
    );
  if (withSwarm) {
    console.log(
      `  chainlens batch --engine swarm (single-node swarm)  median ${fmt(median(c))}  [${c.map(fmt).join(', ')}]`,
    );
    console.log(
      `  swarm ratio            ${(median(c) / median(b)).toFixed(3)} to raw (paired median ${median(c.map((x, i) => x / b[i])).toFixed(3)}), ${(median(c) / median(a)).toFixed(3)} to the local engine (reported)`,
    );
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
