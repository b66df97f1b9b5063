import type { Chain, Prediction } from '../../protocol/chain';
import { PredictionRecordSchema } from '../../protocol/formats/predictions';
import { UserError } from '../util/errors';
import { documentLocation, parseJsonDocuments } from './documents';
import { describeIssues } from './issues';

/**
 * SWE-bench predictions: JSONL lines, a JSON list, or a JSON dict keyed by instance id
 * (mini-swe-agent's preds.json). Returns them keyed by instance id.
 */
export function loadPredictions(fileName: string, text: string): Map<string, Prediction> {
  const docs = parseJsonDocuments(fileName, text);
  const records: { value: unknown; location: string; path: (string | number)[]; key?: string }[] = [];
  for (const doc of docs) {
    const location = documentLocation(fileName, doc);
    const v = doc.value;
    if (Array.isArray(v)) v.forEach((value, i) => records.push({ value, location, path: [i] }));
    else if (typeof v === 'object' && v !== null && !('instance_id' in v) && !('model_patch' in v)) {
      for (const [key, value] of Object.entries(v)) records.push({ value, location, path: [key], key });
    } else records.push({ value: v, location, path: [] });
  }
  const problems: string[] = [];
  const out = new Map<string, Prediction>();
  for (const r of records) {
    // In a dict keyed by instance id the key is the id; a missing instance_id inherits it.
    const value =
      r.key !== undefined && typeof r.value === 'object' && r.value !== null && !('instance_id' in r.value)
        ? { ...r.value, instance_id: r.key }
        : r.value;
    const parsed = PredictionRecordSchema.safeParse(value);
    if (!parsed.success) {
      problems.push(...describeIssues(r.location, parsed.error, r.path));
      continue;
    }
    const p = parsed.data;
    if (r.key !== undefined && p.instance_id !== r.key) {
      problems.push(
        `${r.location}: ${`$["${r.key}"].instance_id`}: '${p.instance_id}' differs from its key '${r.key}'`,
      );
      continue;
    }
    if (out.has(p.instance_id)) {
      problems.push(
        `${r.location}: $${r.path.length ? `[${JSON.stringify(r.path[0])}]` : ''}.instance_id: duplicate prediction for '${p.instance_id}'`,
      );
      continue;
    }
    out.set(p.instance_id, {
      instanceId: p.instance_id,
      model: p.model_name_or_path ?? 'unknown',
      patch: p.model_patch,
    });
  }
  if (problems.length) throw new UserError(`${fileName} has invalid predictions`, 'input', problems);
  return out;
}

/** Predictions must be about this chain: any instance id the chain lacks is an error (a wrong file). */
export function checkPredictionsMatchChain(fileName: string, predictions: Map<string, Prediction>, chain: Chain): void {
  const ids = new Set(chain.steps.map((s) => s.instanceId));
  const unknown = [...predictions.keys()].filter((id) => !ids.has(id));
  if (unknown.length) {
    throw new UserError(`${fileName} has predictions for instances that are not in chain '${chain.id}'`, 'input', [
      ...unknown.slice(0, 20).map((id) => `${fileName}: instance_id '${id}' is not a step of the chain`),
      `the chain's instances: ${[...ids].join(', ')}`,
    ]);
  }
}
