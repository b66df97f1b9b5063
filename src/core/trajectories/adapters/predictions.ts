import type { SourcePosition, Trajectory, TrajectoryProblem } from '../../../protocol/trajectory';
import type { JsonPathKey } from '../json/jsonSplitter';
import { isRecord, SourceReader } from '../sourceReader';

/**
 * SWE-bench predictions (mini-swe-agent `preds.json`: a dict keyed by instance id; SWE-agent
 * `all_preds.jsonl`: one per line; or a list): no steps, only the submission of each instance.
 */
export function predictionTrajectories(
  doc: unknown,
  file: string,
  problems: TrajectoryProblem[],
  at: Pick<SourcePosition, 'line' | 'byteOffset'> = {},
): Trajectory[] {
  const r = new SourceReader(file, problems, at);
  const version = at.line !== undefined ? 'preds-jsonl' : 'preds-json';
  const one = (value: unknown, path: JsonPathKey[], key: string | null): Trajectory | null => {
    const rec = r.element(value, path, 'a prediction');
    if (!rec) return null;
    const instanceId = r.string(rec, 'instance_id', path) ?? key;
    if (!instanceId) r.report('error', 'missing "instance_id"', [...path, 'instance_id']);
    if (key && instanceId && key !== instanceId)
      r.report('warning', `keyed "${key}" but instance_id is "${instanceId}"`, [...path, 'instance_id']);
    const patch = rec.model_patch;
    if (patch !== null && patch !== undefined && typeof patch !== 'string')
      r.report('error', 'model_patch should be a string or null', [...path, 'model_patch']);
    return {
      source: { format: 'predictions', version, file, ...(at.line !== undefined ? { line: at.line } : {}) },
      workspaceRoot: null,
      instanceId: instanceId ?? null,
      model: r.string(rec, 'model_name_or_path', path) ?? null,
      exitStatus: null,
      submission: typeof patch === 'string' ? patch : null,
      modelStats: null,
      problemStatement: null,
      image: null,
      attempt: null,
      steps: [],
      problems: [],
    };
  };
  if (Array.isArray(doc)) return doc.flatMap((v, k) => one(v, [k], null) ?? []);
  if (!isRecord(doc)) {
    r.report('error', 'predictions are a JSON object or list', []);
    return [];
  }
  if ('model_patch' in doc || 'instance_id' in doc) return [one(doc, [], null)].flatMap((t) => t ?? []);
  return Object.entries(doc).flatMap(([key, v]) => one(v, [key], key) ?? []);
}
