import type { Chain, ChainStep } from '../../protocol/chain';
import type { TaskType } from '../../protocol/codethread';
import { chainFromChainSwe, isChainSweDocument } from '../formats/chainswe';
import { documentLocation, parseJsonDocuments, type JsonDocument } from '../formats/documents';
import { chainFromSweBench } from '../formats/swebench';
import { chainFromSweBenchPro, isSweBenchProInstance } from '../formats/swebenchPro';
import { isUserError, UserError } from '../util/errors';

/** One benchmark instance to build a CodeThread task from. */
export interface SourceInstance {
  readonly repo: string;
  /** The instance's base commit; null when the input does not give it (a ChainSWE fix with no earlier commit_hash). */
  readonly baseCommit: string | null;
  readonly dockerImage: string | null;
  readonly step: ChainStep;
  readonly benchmark: string;
  readonly taskType?: TaskType;
}

/** A benchmark's own task label (SWE-bench Pro's categories, a `task_type` field), when it has one. */
function taskTypeOf(raw: unknown): TaskType | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const label = [r.task_type, r.issue_categories, r.issue_specificity]
    .flat()
    .filter((x): x is string => typeof x === 'string')
    .join(' ')
    .toLowerCase();
  if (/refactor/.test(label)) return 'refactor';
  if (/feat/.test(label)) return 'feature';
  if (/bug|fix/.test(label)) return 'bug-fix';
  return undefined;
}

interface RawInstance {
  readonly value: unknown;
  readonly doc: JsonDocument;
  /** '$' or '$[3]' */
  readonly path: string;
}

function rawInstances(docs: readonly JsonDocument[]): RawInstance[] {
  const out: RawInstance[] = [];
  for (const doc of docs) {
    if (Array.isArray(doc.value)) doc.value.forEach((value, i) => out.push({ value, doc, path: `$[${i}]` }));
    else out.push({ value: doc.value, doc, path: '$' });
  }
  return out;
}

/** The one-step chain of one instance, its problems re-anchored at the instance's JSON path. */
function oneInstance(fileName: string, raw: RawInstance, problems: string[]): Chain | undefined {
  const doc: JsonDocument = { value: raw.value, ...(raw.doc.line !== undefined ? { line: raw.doc.line } : {}) };
  try {
    return isSweBenchProInstance(raw.value)
      ? chainFromSweBenchPro(fileName, [doc])
      : chainFromSweBench(fileName, [doc]);
  } catch (e) {
    if (!isUserError(e)) throw e;
    const location = documentLocation(fileName, raw.doc);
    const lines = e.details.length ? e.details : [`${location}: ${raw.path}: ${e.message}`];
    problems.push(...lines.map((l) => l.replace(`${location}: $`, `${location}: ${raw.path}`)));
    return undefined;
  }
}

function fromChainSwe(fileName: string, docs: readonly JsonDocument[], problems: string[]): SourceInstance[] {
  const out: SourceInstance[] = [];
  for (const doc of docs) {
    let chain: Chain;
    try {
      chain = chainFromChainSwe(fileName, doc);
    } catch (e) {
      if (!isUserError(e)) throw e;
      problems.push(...(e.details.length ? e.details : [e.message]));
      continue;
    }
    chain.steps.forEach((step, k) => {
      // Fix k starts where fix k-1 landed: its commit_hash (ChainSWE records it).
      const baseCommit = k === 0 ? chain.baseCommit : (chain.steps[k - 1].commitHash ?? null);
      out.push({ repo: chain.repo, baseCommit, dockerImage: chain.dockerImage, step, benchmark: 'ChainSWE' });
    });
  }
  return out;
}

/**
 * The instances of a benchmark file: SWE-bench instances (a JSON list, one object, or JSONL),
 * SWE-bench Pro instances, or ChainSWE chains (each bug fix an instance). `instanceIds` picks
 * some. Every instance is checked first; any problem throws one UserError naming file, line and
 * JSON path of each, before anything is built.
 */
export function readSourceInstances(fileName: string, text: string, instanceIds?: readonly string[]): SourceInstance[] {
  const docs = parseJsonDocuments(fileName, text);
  const problems: string[] = [];
  let all: SourceInstance[];
  if (isChainSweDocument(docs[0].value)) all = fromChainSwe(fileName, docs, problems);
  else {
    all = [];
    for (const raw of rawInstances(docs)) {
      const chain = oneInstance(fileName, raw, problems);
      if (!chain) continue;
      const pro = chain.format === 'swebench-pro';
      all.push({
        repo: chain.repo,
        baseCommit: chain.baseCommit,
        dockerImage: chain.dockerImage,
        step: chain.steps[0],
        benchmark: pro ? 'SWE-bench Pro' : 'SWE-bench',
        ...(taskTypeOf(raw.value) ? { taskType: taskTypeOf(raw.value) } : {}),
      });
    }
  }
  if (problems.length) throw new UserError(`${fileName} has instances ChainLens cannot read`, 'input', problems);
  const seen = new Map<string, number>();
  for (const s of all) seen.set(s.step.instanceId, (seen.get(s.step.instanceId) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  if (twice.length)
    throw new UserError(`${fileName} names an instance more than once`, 'input', [
      `${fileName}: $[*].instance_id: duplicate ${twice.map((t) => `'${t}'`).join(', ')}`,
    ]);
  if (!instanceIds?.length) return all;
  const unknown = instanceIds.filter((id) => !seen.has(id));
  if (unknown.length)
    throw new UserError(`${fileName} has no instance ${unknown.map((u) => `'${u}'`).join(', ')}`, 'input', [
      `available: ${[...seen.keys()].slice(0, 10).join(', ')}${seen.size > 10 ? ', …' : ''}`,
    ]);
  const wanted = new Set(instanceIds);
  return all.filter((s) => wanted.has(s.step.instanceId));
}
