import { resolve } from 'node:path';
import { UserError } from '../../core/util/errors';
import { loadTrajectoryFile } from '../../infra/trajectories';
import { nothingRead } from '../../core/trajectories/present/fileNotes';
import { compilerProblemText } from '../../core/trajectories/present/problemText';
import { actionLine, filesLine } from '../../core/trajectories/present/stepText';
import type { Trajectory, TrajectoryFile, TrajectoryProblem, TrajectoryStep } from '../../protocol/trajectory';
import { parseCommandArgs } from '../args';
import type { CliCommand, CliIO } from '../command';
import { table } from '../format';
import { jsonPieces } from '../jsonPieces';

const usage = `usage: chainlens trajectory <file> [--json] [--step N] [--instance <id>]

Read an agent trajectory (SWE-agent .traj v0/v1 and retry files, mini-swe-agent .traj.json and
preds.json, OpenHands output.jsonl and SDK event logs) and show its steps: kind, action, exit code
and files touched, or one step in full. Problems in the file go to stderr with their position;
the exit code is 1 when nothing could be read (not one step or submission).
  --json        print the normalised trajectory (or the one step) as JSON
  --step N      show step N (0-based) in full: thought, action, observation, files, patch so far
  --instance    pick one instance of a file holding several (OpenHands output.jsonl, predictions)`;

const options = {
  json: { type: 'boolean', default: false },
  step: { type: 'string' },
  instance: { type: 'string' },
} as const;

export const trajectoryCommand: CliCommand = {
  name: 'trajectory',
  usage,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, options, usage, {
      min: 1,
      max: 1,
      missing: 'expected one trajectory file',
    });
    const step = values.step === undefined ? null : Number(values.step);
    if (step !== null && (!Number.isInteger(step) || step < 0))
      throw new UserError(`--step: expected a step number (0, 1, ...), got '${values.step}'`, 'usage');

    const path = resolve(io.cwd, positionals[0]);
    // On this thread: the CLI has no event loop to keep responsive, and a worker would copy every
    // step across (structured clone reads each derived field, which finishTrajectory leaves to
    // be computed on first use) and hold a second heap meanwhile.
    const file = await loadTrajectoryFile(path, { thread: 'current' });
    for (const p of allProblems(file)) io.err(compilerProblemText(p, positionals[0], path));
    const nothing = nothingRead(file, positionals[0]);
    if (nothing) {
      io.err(`chainlens trajectory: ${nothing}`);
      return 1;
    }

    let chosen = file.trajectories;
    if (values.instance !== undefined) {
      chosen = chosen.filter((t) => t.instanceId === values.instance);
      if (chosen.length === 0) {
        const ids = [...new Set(file.trajectories.map((t) => t.instanceId ?? '(no id)'))];
        throw new UserError(`no instance '${values.instance}' in ${positionals[0]}`, 'input', [
          `instances: ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? `, … (${ids.length})` : ''}`,
        ]);
      }
    }

    if (step !== null) {
      if (chosen.length > 1 && !chosen.every((t) => t.instanceId === chosen[0].instanceId && t.attempt)) {
        throw new UserError(`${positionals[0]} holds ${chosen.length} trajectories; pick one with --instance`, 'usage');
      }
      const t = chosen.find((c) => c.attempt?.chosen) ?? chosen[chosen.length - 1];
      const s = t.steps[step];
      if (!s)
        throw new UserError(
          `--step ${step}: the trajectory has ${t.steps.length} steps (0-${t.steps.length - 1})`,
          'usage',
        );
      if (values.json) printJson(io, s);
      else io.out(describeStep(s));
      return 0;
    }
    if (values.json) {
      printJson(io, { ...file, trajectories: chosen });
      return 0;
    }
    if (chosen.length > 1 && !chosen.every((t) => t.attempt)) {
      io.out(instancesTable(chosen, positionals[0]));
      return 0;
    }
    io.out(chosen.map(describeTrajectory).join('\n\n'));
    return 0;
  },
};

/** JSON.stringify(value, null, 2) and a newline, written in pieces when the output can take them. */
function printJson(io: CliIO, value: unknown): void {
  if (!io.write) return io.out([...jsonPieces(value)].join(''));
  let buffered = '';
  for (const piece of jsonPieces(value)) {
    buffered += piece;
    if (buffered.length >= 1 << 20) {
      io.write(buffered);
      buffered = '';
    }
  }
  io.write(buffered + '\n');
}

function allProblems(file: TrajectoryFile): TrajectoryProblem[] {
  return [...file.problems, ...file.trajectories.flatMap((t) => t.problems)];
}

function header(t: Trajectory): string {
  const bits = [
    `${t.source.format} ${t.source.version}`,
    t.instanceId ?? 'instance unknown',
    t.model ? `model ${t.model}` : null,
    t.exitStatus ? `exit ${t.exitStatus}` : null,
    `${t.steps.length} steps`,
    t.modelStats?.costUsd != null ? `$${t.modelStats.costUsd.toFixed(2)}` : null,
    t.attempt ? `attempt ${t.attempt.index + 1}/${t.attempt.count}${t.attempt.chosen ? ' (chosen)' : ''}` : null,
  ];
  return bits.filter(Boolean).join(' · ');
}

function describeTrajectory(t: Trajectory): string {
  const out = [header(t)];
  if (t.steps.length) {
    const rows = [['step', 'kind', 'action', 'exit', 'files']];
    for (const s of t.steps)
      rows.push([
        String(s.index),
        s.actionKind,
        actionLine(s),
        s.exitCode === null ? '' : String(s.exitCode),
        filesLine(s.filesTouched),
      ]);
    out.push(table(rows));
  }
  out.push(submissionLine(t));
  return out.join('\n');
}

function submissionLine(t: Trajectory): string {
  if (t.submission === null) return 'submission: none recorded';
  const files = [...t.submission.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]);
  if (!files.length) return t.submission.trim() ? 'submission: (not a diff)' : 'submission: empty patch';
  const added = (t.submission.match(/^\+(?!\+\+)/gm) ?? []).length;
  const removed = (t.submission.match(/^-(?!--)/gm) ?? []).length;
  return `submission: ${files.length} file${files.length === 1 ? '' : 's'} (+${added} -${removed}): ${files.join(', ')}`;
}

function instancesTable(ts: Trajectory[], shown: string): string {
  const rows = [['instance', 'steps', 'exit', 'model', 'patch']];
  for (const t of ts) {
    const files = t.submission ? [...t.submission.matchAll(/^diff --git /gm)].length : 0;
    rows.push([
      t.instanceId ?? '(no id)',
      String(t.steps.length),
      t.exitStatus ?? '',
      t.model ?? '',
      t.submission === null ? 'none' : `${files} file${files === 1 ? '' : 's'}`,
    ]);
  }
  return `${shown}: ${ts.length} trajectories (${ts[0].source.format} ${ts[0].source.version}); pick one with --instance <id>\n${table(rows)}`;
}

function describeStep(s: TrajectoryStep): string {
  const lines = [
    `step ${s.index} · ${s.actionKind} (${s.actionKindReason})${s.exitCode === null ? '' : ` · exit ${s.exitCode}`}${s.executionTimeSec === null ? '' : ` · ${s.executionTimeSec.toFixed(2)}s`}`,
  ];
  if (s.tool) lines.push(`tool: ${s.tool.name} ${JSON.stringify(s.tool.args)}`);
  lines.push(
    '',
    '--- thought',
    s.thought.trimEnd(),
    '',
    '--- action',
    s.action.trimEnd(),
    '',
    '--- observation',
    s.observation.trimEnd(),
  );
  if (s.filesTouched.length) {
    lines.push('', '--- files');
    for (const t of s.filesTouched)
      lines.push(
        `${t.access.padEnd(6)} ${t.path}${t.ranges.length ? ' ' + t.ranges.map((r) => `${r.start}-${r.end}`).join(', ') : ''}`,
      );
  }
  const p = s.patchSoFar;
  if (p) {
    lines.push('', `--- patch so far (${p.origin}${p.complete ? '' : ', incomplete'})`);
    lines.push(p.text.trimEnd() || '(no changes)');
    for (const g of p.gaps) lines.push(`gap: ${g}`);
  }
  return lines.join('\n');
}
