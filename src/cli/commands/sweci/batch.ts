import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CliIO } from '../../command';
import { parseCommandArgs, requireOption } from '../../args';
import { UserError } from '../../../core/util/errors';
import { SweciFailedRunSchema, SweciTestChangesSchema } from '../../../protocol/sweci';
import type { SweciBatchAgent } from '../../../protocol/sweciBatch';
import { createSweciBatch, runSweciBatch } from '../../../app/sweci/datasetBatch';
import { refuseRunDirInWorkTree } from '../../../app/batch/runDirPlace';
import { SweciBatchDir } from '../../../infra/sweci/batchDir';
import { oneOf, positiveInt } from './shared';

export const sweciBatchUsage = `usage: chainlens batch <swe-ci-dataset-dir> --run-dir <dir> --architect <cmd> --programmer <cmd>
                       [--agent <name> --architect <cmd> --programmer <cmd>]... [--split default]
                       [--task <id>]... [--limit 20] [--workers N] [--timeout <s>] [--role-timeout <s>]
                       [--failed-run discard|keep] [--test-changes reset|refuse] [--free-requirement]
       chainlens batch --run-dir <dir> [--workers N]   (resume)

Runs SWE-CI's CI loop over a dataset folder (metadata/<split>.csv and data/<task>/) for each
agent: its Architect and Programmer commands (each run with sh -c in the task's work tree, as in
\`chainlens sweci run\`). Several agents: one --agent name before each --architect/--programmer
pair. Each task is prepared once (image loaded, base and oracle measured) for every agent; tasks
run --workers at a time (default 1), each task's iterations in order. Killed at any moment (even
SIGKILL), the same command with --run-dir alone resumes: graded iterations stay, one under way
starts again from its start state. \`chainlens report <dir>\` gives EvoScore and the paper's
observations. See docs/sweci.md.`;

/** `chainlens batch` is a SWE-CI batch when roles are given, or when its run directory holds one. */
export function isSweciBatchArgv(argv: readonly string[], cwd: string): boolean {
  if (
    argv.some(
      (a) =>
        a === '--architect' || a === '--programmer' || a.startsWith('--architect=') || a.startsWith('--programmer='),
    )
  )
    return true;
  const at = argv.indexOf('--run-dir');
  const runDir = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith('--run-dir='))?.slice('--run-dir='.length);
  return runDir !== undefined && SweciBatchDir.isOne(resolve(cwd, runDir));
}

function agentsOf(names: string[] | undefined, architects: string[], programmers: string[]): SweciBatchAgent[] {
  if (architects.length !== programmers.length)
    throw new UserError(
      `each agent needs one --architect and one --programmer (got ${architects.length} and ${programmers.length})`,
      'usage',
    );
  const given = names ?? [];
  if (given.length > 0 && given.length !== architects.length)
    throw new UserError(
      `${given.length} --agent name(s) for ${architects.length} agent(s); name each or none`,
      'usage',
    );
  return architects.map((architect, i) => {
    const name = given[i] ?? (architects.length === 1 ? 'agent' : `agent-${i + 1}`);
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name))
      throw new UserError(`--agent must be a name of letters, digits, . _ -, not '${name}'`, 'usage');
    return { name, architect, programmer: programmers[i] };
  });
}

export async function runSweciBatchCli(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      'run-dir': { type: 'string' },
      agent: { type: 'string', multiple: true },
      architect: { type: 'string', multiple: true },
      programmer: { type: 'string', multiple: true },
      split: { type: 'string' },
      task: { type: 'string', multiple: true },
      limit: { type: 'string' },
      workers: { type: 'string' },
      timeout: { type: 'string' },
      'role-timeout': { type: 'string' },
      'failed-run': { type: 'string' },
      'test-changes': { type: 'string' },
      'free-requirement': { type: 'boolean' },
    },
    sweciBatchUsage,
    { min: 0, max: 1 },
  );
  const runDir = resolve(io.cwd, requireOption(values['run-dir'], '--run-dir', sweciBatchUsage));
  refuseRunDirInWorkTree(runDir);
  const workers = positiveInt(values.workers, '--workers');
  if (positionals.length === 1) {
    const datasetDir = resolve(io.cwd, positionals[0]);
    if (!existsSync(join(datasetDir, 'metadata')))
      throw new UserError(`${datasetDir} is not a SWE-CI dataset folder (it has no metadata/ folder)`, 'input');
    const failedRun = oneOf(values['failed-run'], '--failed-run', SweciFailedRunSchema.options);
    const testChanges = oneOf(values['test-changes'], '--test-changes', SweciTestChangesSchema.options);
    const manifest = createSweciBatch({
      runDir,
      datasetDir,
      split: values.split ?? 'default',
      agents: agentsOf(values.agent, values.architect ?? [], values.programmer ?? []),
      tasks: values.task,
      limit: positiveInt(values.limit, '--limit'),
      timeoutS: positiveInt(values.timeout, '--timeout'),
      roleTimeoutS: positiveInt(values['role-timeout'], '--role-timeout'),
      policies: {
        ...(failedRun ? { failedRun } : {}),
        ...(testChanges ? { testChanges } : {}),
        ...(values['free-requirement'] ? { requirement: 'free' as const } : {}),
      },
    });
    io.err(
      `SWE-CI batch in ${runDir}: ${manifest.tasks.length} task(s) × ${manifest.agents.length} agent(s), at most ${manifest.limit} iterations each`,
    );
  } else {
    const extra = (
      [
        'agent',
        'architect',
        'programmer',
        'split',
        'task',
        'limit',
        'timeout',
        'role-timeout',
        'failed-run',
        'test-changes',
      ] as const
    ).find((k) => values[k] !== undefined);
    if (extra || values['free-requirement'])
      throw new UserError(
        `--${extra ?? 'free-requirement'} describes a new SWE-CI batch: give the dataset folder too, or leave it out to resume`,
        'usage',
      );
    if (!SweciBatchDir.isOne(runDir))
      throw new UserError(`${runDir} holds no SWE-CI batch (no sweci-batch.json)`, 'usage');
    io.err(`resuming the SWE-CI batch in ${runDir}`);
  }
  const abort = new AbortController();
  const onSigint = () => {
    io.err('cancelling: the running roles and tests are stopped; graded iterations are kept');
    abort.abort();
  };
  process.once('SIGINT', onSigint);
  let outcomes;
  try {
    outcomes = await runSweciBatch({ runDir, workers, signal: abort.signal, log: (l) => io.err(l) });
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  for (const o of outcomes) {
    const counts = o.record?.iterations.map((it) => (it.run.usable ? it.run.passed.length : 0)).join(' ') || '-';
    io.out(
      `${o.agent} ${o.taskId}: ${o.status}, passing ${counts}` +
        (o.record?.stopped ? ` (${o.record.stopped})` : '') +
        (o.message ? ` — ${o.message}` : ''),
    );
  }
  if (outcomes.some((o) => o.status === 'cancelled')) return 130;
  const failed = outcomes.filter((o) => o.status === 'failed');
  if (failed.length) {
    io.err(`${failed.length} run(s) stopped on a failure; run \`chainlens batch --run-dir ${runDir}\` again to go on`);
    return 1;
  }
  return 0;
}
