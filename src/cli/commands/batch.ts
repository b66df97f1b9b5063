import { resolve } from 'node:path';
import type { CliCommand, CliIO } from '../command';
import { parseCommandArgs, parseTimeout, requireOption } from '../args';
import { UserError } from '../../core/util/errors';
import { buildBatchReport, progressBar, reportText } from '../../core/batch';
import type { BatchEvent } from '../../protocol/batch';
import type { BatchMode } from '../../protocol/batch';
import { defaultWorkers, runBatch } from '../../app/batch/runBatch';
import { openOrCreateRunDir, planBatch } from '../../app/batch/planBatch';
import { refuseRunDirInWorkTree } from '../../app/batch/runDirPlace';
import { checkBatchEngine, parseEngine, type EvaluationEngine } from '../../app/batch/engine';
import { applyNetworkOption, NETWORK_USAGE } from '../networkOption';
import { AGENT_OPTIONS, parseAgentImage, parseAgentIn, parseAgentMode, parseAgentTimeout } from './agent/options';
import { parseProfile } from './evalRun';
import { isSweciBatchArgv, runSweciBatchCli, sweciBatchUsage } from './sweci/batch';

const usage = `usage: chainlens batch <dataset>... --run-dir <dir> --repo <path|url | owner/name=path|url>...
                       --predictions <file|folder|gold | name=file|folder>... | --agent NAME=COMMAND...
                       [--mode oracle,seq,seq+mem] [--agent-in container|host] [--agent-image <image>]
                       [--agent-timeout <s>]
                       [--workers N] [--retry-failed] [--json] [--timeout <s>] [--profile swebench-v5|swebench-v4]
                       [--repeats N] [--image <override>] [--repo-path-in-image <path>|none] [--engine local|swarm] [--network <mode>]
       chainlens batch --run-dir <dir> [--workers N] [--retry-failed] [--json] [--engine local|swarm] [--network <mode>]   (resume)

Evaluates every step of every chain of the dataset (ChainSWE JSONL/JSON, Parquet, SWE-bench or
CodeThread instance files) for each prediction source in each mode, N steps at a time (default:
one per core), fair across chains; Seq steps of a chain run in order. Each step's record is written
to <dir>/records/ the moment it is done, with its log in <dir>/logs/: a killed batch (even SIGKILL)
continues where it stopped when run again, and never runs a recorded step twice. --retry-failed
also re-runs the steps the environment failed (engine, image, out of memory). At the end the
report is printed (\`chainlens report <dir>\` prints it again, and writes CSV, JSON and HTML).
Progress: a bar on a terminal, one line per step otherwise, JSON events with --json.
--engine swarm runs each step as a Docker Swarm job service on any node of the swarm the engine
manages (it must be in swarm mode: \`docker swarm init\`); the default, local, runs containers on
the engine itself. See docs/scaling.md. On swarm, none is the internal overlay network chainlens-offline.
--agent NAME=COMMAND (repeatable, beside or instead of --predictions) runs an agent as a source:
its command (sh -c) runs once per step on the step's start state in the lane's work tree, in a
container of --agent-image (default: the chain's image) unless --agent-in host, and the change it
leaves is graded. --mode seq+mem (agent sources only) keeps one memory directory per chain. The
environment contract and examples: docs/reference/agents.md.
--repeats N evaluates each graded step N times on the same commit: the first run is the verdict
(as the harness's single run), a test whose result changes between the runs is reported flaky,
and the chain errors and gold steps it touches are marked (docs/reference/metrics.md, "Flaky tests").
${NETWORK_USAGE}

${sweciBatchUsage}`;

function parseModes(value: string | undefined): BatchMode[] {
  if (value === undefined) return ['oracle', 'seq'];
  const modes = [...new Set(value.split(',').map((m) => parseAgentMode(m.trim())))];
  return modes;
}

/** A whole number; its range is planBatch's to check, for every front end alike. */
function parseRepeats(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(value))
    throw new UserError(`--repeats must be a number of evaluations per step from 1 to 100, not '${value}'`, 'usage');
  return Number(value);
}

function parseWorkers(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(value) || Number(value) < 1 || Number(value) > 256)
    throw new UserError(`--workers must be a number of parallel steps from 1 to 256, not '${value}'`, 'usage');
  return Number(value);
}

export const batchCommand: CliCommand = {
  name: 'batch',
  usage,
  async run(argv, io) {
    // A SWE-CI dataset with Architect/Programmer commands, or a SWE-CI batch to resume.
    if (isSweciBatchArgv(argv, io.cwd)) return runSweciBatchCli(argv, io);
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        'run-dir': { type: 'string' },
        repo: { type: 'string', multiple: true },
        predictions: { type: 'string', multiple: true },
        agent: { type: 'string', multiple: true },
        ...AGENT_OPTIONS,
        mode: { type: 'string' },
        workers: { type: 'string' },
        'retry-failed': { type: 'boolean' },
        json: { type: 'boolean' },
        timeout: { type: 'string' },
        profile: { type: 'string' },
        repeats: { type: 'string' },
        image: { type: 'string' },
        'repo-path-in-image': { type: 'string' },
        engine: { type: 'string' },
        network: { type: 'string' },
      },
      usage,
      { min: 0, max: 10_000 },
    );
    const runDir = requireOption(values['run-dir'], '--run-dir', usage);
    refuseRunDirInWorkTree(resolve(io.cwd, runDir));
    const workers = parseWorkers(values.workers) ?? defaultWorkers();
    const engine = parseEngine(values.engine);
    applyNetworkOption(values.network, usage);
    // A swarm that is not there fails the batch before the run directory is made or touched.
    await checkBatchEngine(engine);
    if (positionals.length > 0) {
      // Everything is read and checked before the run directory is made or touched.
      const agentIn = values['agent-in'] === undefined ? undefined : parseAgentIn(values['agent-in']);
      const agents = values.agent ?? [];
      if (!values.predictions?.length && !agents.length)
        throw new UserError(`missing required option --predictions (or --agent NAME=COMMAND)\n\n${usage}`, 'usage');
      const planned = await planBatch({
        cwd: io.cwd,
        runDir,
        dataset: positionals,
        sources: values.predictions ?? [],
        agents,
        agentIn,
        agentImage: parseAgentImage(values['agent-image'], agentIn ?? 'container'),
        agentTimeoutS: values['agent-timeout'] === undefined ? undefined : parseAgentTimeout(values['agent-timeout']),
        modes: parseModes(values.mode),
        repos: requireList(values.repo, '--repo'),
        profile: values.profile === undefined ? undefined : parseProfile(values.profile),
        timeoutS: parseTimeout(values.timeout),
        repeats: parseRepeats(values.repeats),
        image: values.image,
        repoPathInImage: values['repo-path-in-image'],
      });
      const { resumed } = openOrCreateRunDir(planned, runDir);
      if (resumed) io.err(`resuming the batch in ${runDir}`);
    } else {
      const extra = (
        [
          'repo',
          'predictions',
          'agent',
          'agent-in',
          'agent-image',
          'agent-timeout',
          'mode',
          'timeout',
          'profile',
          'repeats',
          'image',
          'repo-path-in-image',
        ] as const
      ).filter((k) => values[k] !== undefined);
      if (extra.length)
        throw new UserError(
          `--${extra[0]} describes a new batch: give the dataset file(s) too, or leave it out to resume\n\n${usage}`,
          'usage',
        );
    }
    return execute(io, runDir, workers, values['retry-failed'] ?? false, values.json ?? false, engine);
  },
};

function requireList(values: string[] | undefined, flag: string): string[] {
  if (!values || values.length === 0) throw new UserError(`missing required option ${flag}\n\n${usage}`, 'usage');
  return values;
}

async function execute(
  io: CliIO,
  runDir: string,
  workers: number,
  retryFailed: boolean,
  json: boolean,
  engine: EvaluationEngine,
): Promise<number> {
  const abort = new AbortController();
  const onSigint = () => {
    io.err('cancelling: stopping the running steps (their containers are removed); recorded steps are kept');
    abort.abort();
  };
  process.once('SIGINT', onSigint);
  const tty = !json && process.stderr.isTTY === true;
  const started = Date.now();
  let before = 0;
  let running = 0;
  let infra = 0;
  const show = (e: BatchEvent) => {
    if (json) return io.out(JSON.stringify(e));
    if (e.event === 'start') {
      before = e.done;
      io.err(`batch ${e.run_dir}: ${e.done}/${e.total} step(s) already recorded; ${e.workers} worker(s)`);
      running = Math.min(e.workers, e.total - e.done);
    } else if (e.event === 'step') {
      if (e.status.startsWith('infra failure')) infra++;
      const bar = progressBar({
        done: e.done,
        total: e.total,
        doneHere: e.done - before,
        elapsedMs: Date.now() - started,
        infraFailures: infra,
        running,
      });
      if (tty) process.stderr.write(`\r\x1b[2K${bar}`);
      else io.err(`${e.done}/${e.total} ${e.chain_id} ${e.source} ${e.mode} step ${e.order}: ${e.status}`);
    } else if (tty) process.stderr.write('\n');
  };
  let outcome;
  try {
    outcome = await runBatch({
      runDir,
      workers,
      retryFailed,
      signal: abort.signal,
      onEvent: show,
      onNote: () => {},
      engine,
    });
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  if (!json) io.out(reportText(buildBatchReport(outcome.manifest, outcome.records)));
  if (outcome.cancelled) return 130;
  const failed = outcome.records.filter((r) => r.infra_failure);
  if (failed.length) {
    io.err(
      `${failed.length} step(s) have no verdict because the environment failed them; run again with --retry-failed`,
    );
    return 1;
  }
  return 0;
}
