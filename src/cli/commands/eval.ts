import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliCommand, CliIO } from '../command';
import { parseCommandArgs, requireOption } from '../args';
import { UserError } from '../../core/util/errors';
import { chainReport } from '../../core/metrics/chainReport';
import { GradingProfileSchema, type GradingProfile } from '../../protocol/grading';
import type { StepEvaluation } from '../../protocol/evaluation';
import { connectDocker } from '../../infra/docker';
import { evaluateStep } from '../../infra/evaluation';
import { openWorkspace } from '../../infra/runs/workspace';
import { parseMode, startRun } from './checkout';
import { table } from '../format';

const usage = `usage: chainlens eval <chain-file> --repo <path|url> --dir <workdir> --mode seq|oracle --predictions <file|gold>
                      [--steps 1-3] [--timeout <s>] [--profile swebench-v5|swebench-v4] [--report <out.json>]
                      [--image <override>] [--repo-path-in-image <path>] [--chain-id <id>] [--instances <id,...>]

Replays the chain in <workdir> with every step authored by the predictions (or gold), then runs each
step's FAIL_TO_PASS / PASS_TO_PASS tests in a fresh container of the chain's image and grades the
log exactly like the SWE-bench harness. Prints a table; --report writes the run's JSON report, and
each step's log and SWE-bench report.json are kept in the run's state folder (\`chainlens status\`
names it; outside the work tree, so a solver never sees them), under runs/<run>/evals/.
Ctrl-C cancels and removes the container.`;

export function parseSteps(spec: string | undefined, orders: number[]): number[] {
  if (!spec) return orders;
  const wanted = new Set<number>();
  for (const part of spec.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new UserError(`--steps '${spec}' is not a step list like 1-3 or 1,3`, 'usage');
    const from = Number(m[1]);
    const to = Number(m[2] ?? m[1]);
    for (let k = from; k <= to; k++) {
      if (!orders.includes(k))
        throw new UserError(`--steps names step ${k}, but the chain has steps ${orders.join(', ')}`, 'usage');
      wanted.add(k);
    }
  }
  return orders.filter((o) => wanted.has(o));
}

export function parseProfile(value: string | undefined): GradingProfile {
  if (value === undefined) return 'swebench-v5';
  const parsed = GradingProfileSchema.safeParse(value);
  if (!parsed.success) throw new UserError(`--profile must be swebench-v5 or swebench-v4, not '${value}'`, 'usage');
  return parsed.data;
}

function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UserError(`--timeout must be a positive number of seconds, not '${value}'`, 'usage');
  return n;
}

const ratio = (b: { success: string[]; failure: string[] }) =>
  `${b.success.length}/${b.success.length + b.failure.length}`;

export function evaluationTable(steps: StepEvaluation[]): string {
  const rows = [['step', 'instance', 'status', 'F2P', 'P2P', 'time']];
  for (const s of steps)
    rows.push([
      String(s.order),
      s.instance_id,
      s.status,
      ratio(s.tests_status.FAIL_TO_PASS),
      ratio(s.tests_status.PASS_TO_PASS),
      `${s.duration_s.toFixed(1)}s`,
    ]);
  const errors = steps.filter((s) => s.error).map((s) => `  step ${s.order}: ${s.error_kind ?? 'error'}: ${s.error}`);
  return [table(rows), ...errors].join('\n');
}

export const evalCommand: CliCommand = {
  name: 'eval',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        repo: { type: 'string' },
        dir: { type: 'string' },
        mode: { type: 'string' },
        predictions: { type: 'string' },
        steps: { type: 'string' },
        timeout: { type: 'string' },
        profile: { type: 'string' },
        report: { type: 'string' },
        image: { type: 'string' },
        'repo-path-in-image': { type: 'string' },
        'chain-id': { type: 'string' },
        instances: { type: 'string' },
      },
      usage,
    );
    if (positionals.length !== 1) throw new UserError(`expected one chain file\n\n${usage}`, 'usage');
    const predictions = requireOption(values.predictions, '--predictions', usage);
    const profile = parseProfile(values.profile);
    const timeoutS = parseTimeout(values.timeout);
    const mode = parseMode(requireOption(values.mode, '--mode', usage));
    const dir = requireOption(values.dir, '--dir', usage);
    // Fail before replaying anything when no engine answers.
    await connectDocker();
    await startRun(io, {
      chainFile: positionals[0],
      repo: requireOption(values.repo, '--repo', usage),
      dir,
      mode,
      chainId: values['chain-id'],
      instances: values.instances,
      predictions: predictions === 'gold' ? undefined : predictions,
      defaultAuthor: predictions === 'gold' ? 'gold' : 'recorded',
      quietStatus: true,
      operation: 'eval (replay)',
    });
    return evaluateRun(io, {
      dir: resolve(io.cwd, dir),
      steps: values.steps,
      profile,
      timeoutS,
      image: values.image,
      repoPathInImage: values['repo-path-in-image'],
      report: values.report,
    });
  },
};

async function evaluateRun(
  io: CliIO,
  o: {
    dir: string;
    steps?: string;
    profile: GradingProfile;
    timeoutS?: number;
    image?: string;
    repoPathInImage?: string;
    report?: string;
  },
): Promise<number> {
  const ws = await openWorkspace(o.dir, (l) => io.err(l));
  const { state, chain } = await ws.engine.open();
  const orders = parseSteps(
    o.steps,
    state.steps.map((s) => s.order),
  );
  const abort = new AbortController();
  const onSigint = () => {
    io.err('cancelling: removing the container…');
    abort.abort();
  };
  process.once('SIGINT', onSigint);
  const results: StepEvaluation[] = [];
  try {
    for (const order of orders) {
      if (abort.signal.aborted) break;
      io.err(`step ${order}: evaluating…`);
      const result = await evaluateStep({
        dir: o.dir,
        workspace: ws,
        step: order,
        source: 'submitted',
        image: o.image,
        repoPathInImage: o.repoPathInImage,
        timeoutS: o.timeoutS,
        profile: o.profile,
        signal: abort.signal,
      });
      io.err(
        `step ${order}: ${result.status} (F2P ${ratio(result.tests_status.FAIL_TO_PASS)}, P2P ${ratio(result.tests_status.PASS_TO_PASS)}) log: ${result.log_path}`,
      );
      results.push(result);
    }
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  const report = chainReport({
    chainId: chain.id,
    runId: state.runId,
    mode: state.mode,
    profile: o.profile,
    steps: results,
  });
  io.out(`chain ${chain.id}  run ${state.runId}  mode ${state.mode}  profile ${o.profile}\n`);
  io.out(evaluationTable(results));
  io.out(
    `\nresolved ${report.resolved_steps}/${results.length} step(s); full chain ${report.full_chain_resolved ? 'resolved' : 'not resolved'}`,
  );
  if (o.report) {
    const out = resolve(io.cwd, o.report);
    writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
    io.err(`report written to ${out}`);
  }
  return abort.signal.aborted ? 130 : 0;
}
