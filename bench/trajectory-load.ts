// Loading big trajectories: a generated ~100 MB SWE-agent v1 .traj (real 100 MB files are big
// because every step stores its whole query history), one of the same size made of steps alone
// (no query: the real step-heavy shape), and a ~100 MB OpenHands output.jsonl.
// First, as a user runs it: `chainlens trajectory <file>` (the built CLI, a process) against
// `node -e` JSON.parse(readFileSync) of the same file, interleaved, median and spread of `reps`
// runs, peak RSS (from /usr/bin/time) as a ratio to the file size. Then, once each, the loader in
// its own process (worker thread and caller's thread) for the time to the first steps and the
// longest event-loop stall.
// Run after `npm run build`: node --import tsx bench/trajectory-load.ts [targetMB=100] [reps=5]
// Inputs only (to profile): node --import tsx bench/trajectory-load.ts --generate <dir> [targetMB]
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { once } from 'node:events';
import { build } from 'esbuild';
import { loadTrajectoryFile } from '../src/infra/trajectories';
import { interleave, median, report, timedProcess } from './lib/interleave';

const ROOT = resolve(__dirname, '..');

interface Measure {
  firstMs: number;
  totalMs: number;
  maxRssMB: number;
  maxStallMs: number;
  trajectories: number;
  steps: number;
}

// ---------- generated inputs ----------------------------------------------------------------

/** Ten modules of 400 lines whose content the generated runs view and edit consistently. */
function makeFiles(): string[][] {
  return Array.from({ length: 10 }, (_, f) =>
    Array.from({ length: 400 }, (_, i) =>
      i % 12 === 0
        ? `def helper_${f}_${i}(value, options=None):`
        : `    total_${i % 7} = compute(value, ${i}, options)  # module ${f} line ${i + 1}`,
    ),
  );
}

function windowOf(path: string, lines: string[], center: number): string {
  const start = Math.max(1, center - 50);
  const end = Math.min(lines.length, start + 99);
  const body = lines.slice(start - 1, end).map((l, k) => `${start + k}:${l}`);
  return [
    `[File: /testbed/${path} (${lines.length} lines total)]`,
    `(${start - 1} more lines above)`,
    ...body,
    `(${lines.length - end} more lines below)`,
  ].join('\n');
}

function pytestLog(step: number): string {
  const rows = Array.from(
    { length: 60 },
    (_, k) => `tests/test_module_${k % 10}.py::test_case_${k} ${k % 17 === step % 17 ? 'FAILED' : 'PASSED'}`,
  );
  return [
    '============================= test session starts ==============================',
    ...rows,
    `======================== 1 failed, 59 passed in ${(step % 9) + 1}.23s ========================`,
  ].join('\n');
}

/**
 * SWE-agent v1 .traj. `withQuery`: its entries carry `query` (the whole conversation so far), as
 * many real runs do, which ChainLens skips: its best case. Without it the same bytes are thousands
 * of steps (real step-heavy files: 100 MiB in about 16,000 steps), each one interpreted.
 */
async function writeSweAgentTraj(path: string, targetBytes: number, withQuery = true): Promise<void> {
  const files = makeFiles();
  const system = {
    role: 'system',
    content: 'SETTING: You are an autonomous programmer. '.repeat(40),
    message_type: 'system_prompt',
  };
  const history: Record<string, unknown>[] = [
    system,
    { role: 'user', content: 'ISSUE: compute() loses precision. '.repeat(60), message_type: 'observation' },
  ];
  const trajectory: Record<string, unknown>[] = [];
  let size = 0;
  for (let step = 0; size < targetBytes; step++) {
    // each cycle opens a module, edits it, runs the tests and searches
    const f = Math.floor(step / 4) % files.length;
    const path = `src/pkg/module_${f}.py`;
    const lines = files[f];
    const at = 20 + ((step * 37) % 360);
    let action: string;
    let observation: string;
    let tool: { name: string; arguments: Record<string, unknown> };
    switch (step % 4) {
      case 0:
        action = `open "${path}" ${at}`;
        tool = { name: 'open', arguments: { path, line_number: at } };
        observation = windowOf(path, lines, at);
        break;
      case 1: {
        const replacement = [
          `    total_0 = compute(value, ${at}, options)  # fixed at step ${step}`,
          `    total_1 = round(total_0, 6)`,
        ];
        action = `edit ${at}:${at}\n${replacement.join('\n')}\nend_of_edit`;
        tool = { name: 'edit', arguments: { start_line: at, end_line: at, replacement_text: replacement.join('\n') } };
        lines.splice(at - 1, 1, ...replacement);
        observation = `File updated. Please review the changes and make sure they are correct\n(correct indentation, no duplicate lines, etc). Edit the file again if necessary.\n${windowOf(path, lines, at)}`;
        break;
      }
      case 2:
        action = 'python -m pytest tests -q';
        tool = { name: 'bash', arguments: { command: action } };
        observation = pytestLog(step);
        break;
      default:
        action = 'search_dir "def helper" src';
        tool = { name: 'search_dir', arguments: { search_term: 'def helper', dir: 'src' } };
        observation = [
          'Found 340 matches for "def helper" in /testbed/src:',
          ...files.map((_, k) => `/testbed/src/pkg/module_${k}.py (34 matches)`),
          'End of matches for "def helper" in /testbed/src',
        ].join('\n');
    }
    const thought =
      `Step ${step}: looking at ${path} around line ${at} to follow how compute() rounds its result. `.repeat(3);
    const call = {
      id: `call_${step}`,
      type: 'function',
      function: { name: tool.name, arguments: JSON.stringify(tool.arguments) },
    };
    history.push({
      role: 'assistant',
      content: thought,
      thought,
      action,
      agent: 'main',
      tool_calls: [call],
      message_type: 'action',
    });
    history.push({
      role: 'tool',
      content: observation,
      agent: 'main',
      tool_call_ids: [call.id],
      message_type: 'observation',
    });
    const entry = {
      action,
      observation,
      response: thought,
      thought,
      execution_time: 0.25 + (step % 5) / 10,
      state: { open_file: `/testbed/${path}`, working_dir: '/testbed' },
      ...(withQuery ? { query: history.slice() } : {}),
      extra_info: {},
    };
    trajectory.push(entry);
    size += JSON.stringify(entry, null, 2).length + 2 * (observation.length + thought.length);
  }
  const doc = {
    environment: 'main',
    trajectory,
    history,
    info: {
      submission: '',
      exit_status: 'submitted',
      model_stats: {
        instance_cost: 1.5,
        tokens_sent: 1_000_000,
        tokens_received: 20_000,
        api_calls: trajectory.length,
      },
    },
    replay_config: {
      env: { deployment: { image: 'swebench/sweb.eval.x86_64.bench:latest' }, repo: { repo_name: 'testbed' } },
      agent: { model: { name: 'gpt-4o' } },
      problem_statement: { id: 'bench__bench-1', text: 'compute() loses precision' },
    },
  };
  const out = createWriteStream(path);
  out.end(JSON.stringify(doc, null, 2));
  await once(out, 'finish');
}

/** OpenHands output.jsonl: one instance per line, each a few hundred V0 events. */
async function writeOpenHandsJsonl(path: string, targetBytes: number): Promise<void> {
  const out = createWriteStream(path);
  let size = 0;
  for (let inst = 0; size < targetBytes; inst++) {
    const files = makeFiles();
    const history: Record<string, unknown>[] = [
      {
        id: 0,
        timestamp: '2025-04-30T16:32:54.707474',
        source: 'agent',
        message: 'You are OpenHands agent',
        action: 'system',
        args: { content: 'You are OpenHands agent' },
      },
      {
        id: 1,
        timestamp: '2025-04-30T16:32:54.708196',
        source: 'user',
        message: 'task',
        action: 'message',
        args: { content: '<uploaded_files>\n/workspace/bench__bench__1.0\n</uploaded_files>\nFix compute().' },
      },
    ];
    let id = 2;
    for (let k = 0; k < 60; k++) {
      const f = k % files.length;
      const path = `/workspace/bench__bench__1.0/src/pkg/module_${f}.py`;
      const lines = files[f];
      const at = 20 + ((k * 37) % 300);
      const view = lines
        .slice(at - 1, at + 79)
        .map((l, j) => `${String(at + j).padStart(6)}\t${l}`)
        .join('\n');
      const readId = id++;
      history.push({
        id: readId,
        timestamp: '2025-04-30T16:33:10.979271',
        source: 'agent',
        message: `Reading file: ${path}`,
        action: 'read',
        tool_call_metadata: { function_name: 'str_replace_editor', tool_call_id: `toolu_${readId}` },
        args: {
          path,
          start: 0,
          end: -1,
          thought: `Look at line ${at}.`,
          impl_source: 'oh_aci',
          view_range: [at, at + 79],
        },
      });
      history.push({
        id: id++,
        timestamp: '2025-04-30T16:33:10.990823',
        source: 'agent',
        message: `I read the file ${path}.`,
        cause: readId,
        observation: 'read',
        content: `Here's the result of running \`cat -n\` on ${path}:\n${view}\n`,
        extras: { path, impl_source: 'oh_aci' },
      });
      const old = lines[at];
      const replacement = `${old}  # reviewed ${k}`;
      const editId = id++;
      history.push({
        id: editId,
        timestamp: '2025-04-30T16:33:38.279310',
        source: 'agent',
        message: '',
        action: 'edit',
        tool_call_metadata: { function_name: 'str_replace_editor', tool_call_id: `toolu_${editId}` },
        args: {
          path,
          command: 'str_replace',
          old_str: old,
          new_str: replacement,
          thought: 'Mark it reviewed.',
          impl_source: 'oh_aci',
        },
      });
      lines[at] = replacement;
      const snippet = lines
        .slice(at - 4, at + 5)
        .map((l, j) => `${String(at - 3 + j).padStart(6)}\t${l}`)
        .join('\n');
      history.push({
        id: id++,
        timestamp: '2025-04-30T16:33:38.284632',
        source: 'agent',
        message: `I edited the file ${path}.`,
        cause: editId,
        observation: 'edit',
        content: `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n${snippet}\nReview the changes and make sure they are as expected. Edit the file again if necessary.`,
        extras: {
          path,
          prev_exist: false,
          old_content: old,
          new_content: replacement,
          impl_source: 'oh_aci',
          diff: '',
        },
      });
      const runId = id++;
      history.push({
        id: runId,
        timestamp: '2025-04-30T16:33:59.066959',
        source: 'agent',
        message: 'Running command: python -m pytest tests -q',
        action: 'run',
        tool_call_metadata: { function_name: 'execute_bash', tool_call_id: `toolu_${runId}` },
        args: {
          command: 'cd /workspace/bench__bench__1.0 && python -m pytest tests -q',
          is_input: false,
          thought: 'Run the tests.',
        },
      });
      history.push({
        id: id++,
        timestamp: '2025-04-30T16:33:59.682221',
        source: 'agent',
        message: 'Command executed with exit code 1.',
        cause: runId,
        observation: 'run',
        content: pytestLog(k),
        extras: { command: 'python -m pytest tests -q', metadata: { exit_code: 1 } },
        success: false,
      });
    }
    const line = JSON.stringify({
      instance_id: `bench__bench-${inst}`,
      test_result: { git_patch: '' },
      instruction: '<uploaded_files>\n/workspace/bench__bench__1.0\n</uploaded_files>\nFix compute().',
      metadata: { agent_class: 'CodeActAgent', llm_config: { model: 'openai/bench' } },
      history,
      metrics: { accumulated_cost: 0.5 },
      error: null,
      instance: { repo: 'bench/bench', instance_id: `bench__bench-${inst}` },
    });
    size += line.length + 1;
    if (!out.write(line + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

// ---------- measurements (each in its own process) -----------------------------------------

async function measureLoader(file: string, thread: 'worker' | 'current', workerScript: string): Promise<Measure> {
  const stall = monitorEventLoopDelay({ resolution: 10 });
  stall.enable();
  const t0 = performance.now();
  let firstMs = -1;
  const result = await loadTrajectoryFile(file, {
    thread,
    workerScript,
    onProgress: (p) => {
      if (firstMs < 0 && (p.preview || p.trajectory)) firstMs = performance.now() - t0;
    },
  });
  const totalMs = performance.now() - t0;
  stall.disable();
  return {
    firstMs,
    totalMs,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    maxStallMs: stall.max / 1e6,
    trajectories: result.trajectories.length,
    steps: result.trajectories.reduce((n, t) => n + t.steps.length, 0),
  };
}

function measureRaw(file: string): Measure {
  const t0 = performance.now();
  const text = readFileSync(file, 'utf8');
  let trajectories = 0;
  if (file.endsWith('.jsonl')) {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      JSON.parse(line);
      trajectories++;
    }
  } else {
    JSON.parse(text);
    trajectories = 1;
  }
  const totalMs = performance.now() - t0;
  // JSON.parse(readFileSync) blocks its thread for the whole read
  return {
    firstMs: totalMs,
    totalMs,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    maxStallMs: totalMs,
    trajectories,
    steps: -1,
  };
}

function child(mode: string, file: string, workerScript: string): Measure {
  const out = execFileSync(process.execPath, ['--import', 'tsx', __filename, '--child', mode, file, workerScript], {
    cwd: ROOT,
    maxBuffer: 1 << 20,
  }).toString();
  return JSON.parse(out.trim().split('\n').pop()!) as Measure;
}

/** The raw side of the CLI comparison: what any Node program pays to have the file parsed. */
const RAW_PARSE = `const t = require('fs').readFileSync(process.argv[1], 'utf8');
if (process.argv[1].endsWith('.jsonl')) { for (const l of t.split('\\n')) if (l.trim()) JSON.parse(l); }
else JSON.parse(t);`;

/** One process under /usr/bin/time: wall ms (start-up included) and its peak RSS in MiB. */
async function timedWithRss(args: string[], peaks: number[]): Promise<number> {
  const run = await timedProcess('/usr/bin/time', ['-f', 'maxrss_kb %M', process.execPath, ...args], { cwd: ROOT });
  if (run.code !== 0) throw new Error(`${args.join(' ')} exited ${run.code}: ${run.stderr.slice(-2000)}`);
  const kb = /maxrss_kb (\d+)\s*$/.exec(run.stderr);
  if (!kb) throw new Error(`no peak RSS from /usr/bin/time: ${run.stderr.slice(-500)}`);
  peaks.push(Number(kb[1]) / 1024);
  return run.ms;
}

/** `chainlens trajectory <file>` against `node -e` JSON.parse, interleaved, as the issue asks. */
async function compareCli(label: string, file: string, reps: number): Promise<void> {
  const mib = statSync(file).size / (1024 * 1024);
  const cliPeaks: number[] = [];
  const rawPeaks: number[] = [];
  const measured = await interleave(
    [
      {
        name: 'chainlens trajectory',
        run: () => timedWithRss([join(ROOT, 'dist/cli.js'), 'trajectory', file], cliPeaks),
      },
      { name: 'node -e JSON.parse', run: () => timedWithRss(['-e', RAW_PARSE, file], rawPeaks) },
    ],
    reps,
  );
  console.log(
    report(`\n${label}: ${mib.toFixed(1)} MiB, ${reps} runs each, interleaved`, measured, 'node -e JSON.parse'),
  );
  for (const [name, peaks] of [
    ['chainlens trajectory', cliPeaks],
    ['node -e JSON.parse', rawPeaks],
  ] as const) {
    const m = median(peaks);
    console.log(
      `  ${name.padEnd(20)}  peak RSS median ${m.toFixed(0)} MiB (${Math.min(...peaks).toFixed(0)}-${Math.max(...peaks).toFixed(0)}), ${(m / mib).toFixed(2)}x the file`,
    );
  }
}

async function main() {
  const targetMB = Number(process.argv[2] ?? 100);
  const reps = Number(process.argv[3] ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-trajbench-'));
  try {
    const workerScript = join(dir, 'trajectory-worker.js');
    await build({
      entryPoints: [join(ROOT, 'src/infra/trajectories/parseWorker.ts')],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      outfile: workerScript,
      logLevel: 'warning',
    });
    const traj = join(dir, 'bench__bench-1.traj');
    const steps = join(dir, 'bench__steps-1.traj');
    const jsonl = join(dir, 'output.jsonl');
    await writeSweAgentTraj(traj, targetMB * 1024 * 1024);
    await writeSweAgentTraj(steps, targetMB * 1024 * 1024, false);
    await writeOpenHandsJsonl(jsonl, targetMB * 1024 * 1024);

    console.log(
      `trajectory CLI vs JSON.parse (node ${process.version}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
    await compareCli('SWE-agent v1 .traj', traj, reps);
    await compareCli('SWE-agent v1 .traj, step-heavy (no query)', steps, reps);
    await compareCli('OpenHands output.jsonl', jsonl, reps);
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
    console.log(
      `\ntrajectory load (node ${process.version}; every row its own process; "stall" = longest event-loop block on the calling thread)`,
    );
    for (const [label, file] of [
      ['SWE-agent v1 .traj', traj],
      ['OpenHands output.jsonl', jsonl],
    ] as const) {
      const mb = statSync(file).size / (1024 * 1024);
      const raw = child('raw', file, workerScript);
      const worker = child('worker', file, workerScript);
      const here = child('current', file, workerScript);
      console.log(
        `\n${label}: ${mb.toFixed(1)} MB, ${worker.trajectories} trajector${worker.trajectories === 1 ? 'y' : 'ies'}, ${worker.steps} steps`,
      );
      console.log('  how                                first steps   total ms   vs raw   peak RSS MB   stall ms');
      for (const [name, m] of [
        ['JSON.parse(readFileSync) (raw)', raw],
        ['loadTrajectoryFile, worker thread', worker],
        ['loadTrajectoryFile, caller thread', here],
      ] as const) {
        console.log(
          `  ${name.padEnd(34)} ${fmt(m.firstMs).padStart(11)} ${fmt(m.totalMs).padStart(10)} ${(m.totalMs / raw.totalMs).toFixed(2).padStart(7)}x ${fmt(m.maxRssMB).padStart(12)} ${fmt(m.maxStallMs).padStart(10)}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--generate') {
  // the inputs alone, to profile a load by hand (node --cpu-prof dist/cli.js trajectory <file>)
  const [, , , dir, mb = '100'] = process.argv;
  Promise.all([
    writeSweAgentTraj(join(dir, 'bench__bench-1.traj'), Number(mb) * 1024 * 1024),
    writeOpenHandsJsonl(join(dir, 'output.jsonl'), Number(mb) * 1024 * 1024),
  ]).catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
} else if (process.argv[2] === '--child') {
  const [, , , mode, file, workerScript] = process.argv;
  const run =
    mode === 'raw'
      ? Promise.resolve(measureRaw(file))
      : measureLoader(file, mode as 'worker' | 'current', workerScript);
  run.then((m) => console.log(JSON.stringify(m)));
} else {
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
