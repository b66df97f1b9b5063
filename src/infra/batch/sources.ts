import { readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { BatchSource } from '../../protocol/batch';
import type { Prediction } from '../../protocol/chain';
import { loadPredictions } from '../../core/formats/predictions';
import { isTrajectoryFile } from '../../core/formats/trajectoryPredictions';
import { instanceIdFromFileName, parseTrajectory } from '../../core/trajectories';
import { peakContextTokens } from '../../core/trajectories/peakContext';
import { OptionError, UserError } from '../../core/util/errors';
import { readUserFile } from '../files';

export interface LoadedSource {
  readonly source: BatchSource;
  /** Instance id -> the recorded patch (empty for gold: gold authors need none). */
  readonly predictions: Map<string, Prediction>;
  /** Instance id -> cost in USD, when the trajectory records it. */
  readonly costs: Map<string, number>;
  /** Instance id -> peak input context (tokens) of one model call, when the trajectory records it. */
  readonly peakContext: Map<string, number>;
  /** Where each prediction came from (file, for messages). */
  readonly origins: Map<string, string>;
}

/** Files of a trajectory folder that can hold a run (SWE-agent, mini-swe-agent, OpenHands, predictions). */
const RUN_FILE = /\.(traj|json|jsonl)$/i;

/**
 * `--predictions <spec>`: `gold`, a file (SWE-bench predictions or a trajectory), or a folder of
 * trajectories, optionally named `name=path` (default: the file or folder name).
 */
export function parseSourceSpec(cwd: string, spec: string): BatchSource {
  if (spec === 'gold') return { name: 'gold', kind: 'gold' };
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]{0,79})=(.+)$/.exec(spec);
  const path = resolve(cwd, m ? m[2] : spec);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new OptionError('predictions', `${path} does not exist`);
  }
  const name = m
    ? m[1]
    : basename(path)
        .replace(/(\.traj)?\.(jsonl?|traj)$/i, '')
        .replace(/[^A-Za-z0-9._-]/g, '-')
        .slice(0, 80) || 'predictions';
  return { name: /^[A-Za-z0-9]/.test(name) ? name : `p${name}`, kind: isDir ? 'trajectories' : 'predictions', path };
}

/** Reads a source's predictions (and costs) from its file or folder. */
export function loadSource(source: BatchSource): LoadedSource {
  const out: LoadedSource = {
    source,
    predictions: new Map(),
    costs: new Map(),
    peakContext: new Map(),
    origins: new Map(),
  };
  if (source.kind === 'gold') return out;
  const files =
    source.kind === 'trajectories'
      ? readdirSync(source.path!, { recursive: true, encoding: 'utf8' })
          .filter((f) => RUN_FILE.test(f))
          .sort()
          .map((f) => join(source.path!, f))
          .filter((f) => statSync(f).isFile())
      : [source.path!];
  if (files.length === 0)
    throw new OptionError('predictions', `${source.path}: the folder holds no trajectory`, 'input');
  const problems: string[] = [];
  for (const file of files) {
    const text = readUserFile(file, 'predictions file');
    for (const [id, p, cost, peak] of recordsOf(file, text)) {
      const before = out.origins.get(id);
      if (before) {
        problems.push(`${file}: instance_id '${id}' has a prediction in ${before} too`);
        continue;
      }
      out.predictions.set(id, p);
      out.origins.set(id, file);
      if (cost !== null) out.costs.set(id, cost);
      if (peak !== null) out.peakContext.set(id, peak);
    }
  }
  if (problems.length)
    throw new OptionError('predictions', `${source.path}: an instance is predicted twice`, 'input', problems);
  return out;
}

function recordsOf(file: string, text: string): [string, Prediction, number | null, number | null][] {
  if (!isTrajectoryFile(file, text)) return [...loadPredictions(file, text)].map(([id, p]) => [id, p, null, null]);
  const parsed = parseTrajectory(file, text);
  if (parsed.trajectories.length === 0)
    throw new UserError(
      `${file} holds no readable trajectory${parsed.problems[0] ? `: ${parsed.problems[0].message}` : ''}`,
      'input',
    );
  return parsed.trajectories.map((t) => {
    const id = t.instanceId ?? instanceIdFromFileName(file);
    if (!id)
      throw new UserError(`${file} does not say which instance it solved; name the file <instance_id>.traj`, 'input');
    return [
      id,
      { instanceId: id, model: t.model ?? 'unknown', patch: t.submission },
      t.modelStats?.costUsd ?? null,
      peakContextTokens(t.modelStats),
    ];
  });
}

/**
 * Predictions must be about the dataset: an instance id no chain has is a wrong file (or a wrong
 * dataset), refused with every such id and where it came from.
 */
export function checkSourceCoversDataset(loaded: LoadedSource, instanceIds: ReadonlySet<string>): void {
  const unknown = [...loaded.predictions.keys()].filter((id) => !instanceIds.has(id));
  if (unknown.length)
    throw new OptionError(
      'predictions',
      `${loaded.source.path}: ${unknown.length} prediction(s) for instances no chain of the dataset has`,
      'input',
      unknown.slice(0, 20).map((id) => `${loaded.origins.get(id)}: instance_id '${id}' is not a step of any chain`),
    );
}
