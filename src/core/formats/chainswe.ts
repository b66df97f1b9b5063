import type { Chain } from '../../protocol/chain';
import { ChainSweChainSchema, type ChainSweChain } from '../../protocol/formats/chainswe';
import { OptionError, UserError } from '../util/errors';
import { documentLocation, type JsonDocument } from './documents';
import { imageReferenceProblem } from './imageReference';
import { describeIssues } from './issues';
import { chainIdProblem, instanceIdProblem, patchProblem } from './stepFields';

export function isChainSweDocument(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'bug_fixes' in value;
}

/** Picks one chain of a ChainSWE dataset (JSONL, one chain per line) by `continuous_id`. */
export function pickChainSweDocument(
  fileName: string,
  docs: JsonDocument[],
  chainId: string | undefined,
): JsonDocument {
  if (chainId === undefined) {
    if (docs.length === 1) return docs[0];
    const ids = docs
      .map((d) => (d.value as { continuous_id?: unknown }).continuous_id)
      .filter((x) => typeof x === 'string');
    throw new OptionError('chainId', `${fileName} holds ${docs.length} chains; choose one`, 'input', [
      `available: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? `, … (${ids.length} in all)` : ''}`,
    ]);
  }
  const match = docs.find((d) => (d.value as { continuous_id?: unknown }).continuous_id === chainId);
  if (!match) {
    throw new UserError(`${fileName} has no chain with continuous_id '${chainId}'`, 'input', [
      `${fileName}: $.continuous_id: none of the ${docs.length} chain(s) is '${chainId}'`,
    ]);
  }
  return match;
}

/** Validates a ChainSWE chain and normalises it: steps sorted by `order`, test lists decoded. */
export function chainFromChainSwe(fileName: string, doc: JsonDocument): Chain {
  const location = documentLocation(fileName, doc);
  const parsed = ChainSweChainSchema.safeParse(doc.value);
  if (!parsed.success) {
    throw new UserError(`${location} is not a valid ChainSWE chain`, 'input', describeIssues(location, parsed.error));
  }
  const raw: ChainSweChain = parsed.data;
  const problems: string[] = fieldProblems(location, raw);
  const seenOrder = new Map<number, number>();
  const seenId = new Map<string, number>();
  raw.bug_fixes.forEach((fix, i) => {
    const prevOrder = seenOrder.get(fix.order);
    if (prevOrder !== undefined)
      problems.push(
        `${location}: $.bug_fixes[${i}].order: duplicate order ${fix.order} (also $.bug_fixes[${prevOrder}])`,
      );
    seenOrder.set(fix.order, i);
    const prevId = seenId.get(fix.swebench_instance_id);
    if (prevId !== undefined)
      problems.push(
        `${location}: $.bug_fixes[${i}].swebench_instance_id: duplicate '${fix.swebench_instance_id}' (also $.bug_fixes[${prevId}])`,
      );
    seenId.set(fix.swebench_instance_id, i);
  });
  const fixes = [...raw.bug_fixes].sort((a, b) => a.order - b.order);
  if (raw.swebench_instance_ids && problems.length === 0) {
    const expected = fixes.map((f) => f.swebench_instance_id);
    if (raw.swebench_instance_ids.join('\n') !== expected.join('\n')) {
      problems.push(
        `${location}: $.swebench_instance_ids: [${raw.swebench_instance_ids.join(', ')}] does not match bug_fixes by order [${expected.join(', ')}]`,
      );
    }
  }
  if (problems.length) throw new UserError(`${location} is not a valid ChainSWE chain`, 'input', problems);
  const source = datasetSource(raw);
  return {
    id: raw.continuous_id,
    repo: raw.repo,
    ...(source ? { source } : {}),
    baseCommit: raw.base_commit,
    dockerImage: raw.docker_image ?? null,
    format: 'chainswe',
    steps: fixes.map((fix) => ({
      order: fix.order,
      instanceId: fix.swebench_instance_id,
      problemStatement: fix.problem_statement,
      goldPatch: fix.patch,
      testPatch: fix.test_patch,
      failToPass: fix.FAIL_TO_PASS,
      passToPass: fix.PASS_TO_PASS,
      testCmd: fix.test_cmds ?? null,
      ...(fix.commit_hash ? { commitHash: fix.commit_hash } : {}),
      ...(fix.date ? { createdAt: fix.date } : {}),
    })),
  };
}

/**
 * Which dataset the chain was mined from (ChainSWE Table 7): the chain's `source`, else its bug
 * fixes' `source` when they agree, "Mixed" when they do not (the paper's "chains spanning
 * multiple sources").
 */
function datasetSource(raw: ChainSweChain): string | undefined {
  if (raw.source) return raw.source;
  const each = [...new Set(raw.bug_fixes.map((f) => f.source).filter((s): s is string => !!s))];
  return each.length === 0 ? undefined : each.length === 1 ? each[0] : 'Mixed';
}

/** The checks a schema cannot make (stepFields.ts), one line per problem with its JSON path. */
function fieldProblems(location: string, raw: ChainSweChain): string[] {
  const problems: string[] = [];
  const add = (path: string, problem: string | null) => problem && problems.push(`${location}: ${path}: ${problem}`);
  add('$.continuous_id', chainIdProblem(raw.continuous_id));
  if (raw.docker_image) add('$.docker_image', imageReferenceProblem(raw.docker_image));
  raw.bug_fixes.forEach((fix, i) => {
    add(`$.bug_fixes[${i}].swebench_instance_id`, instanceIdProblem(fix.swebench_instance_id));
    add(`$.bug_fixes[${i}].patch`, patchProblem(fix.patch));
    add(`$.bug_fixes[${i}].test_patch`, patchProblem(fix.test_patch));
  });
  return problems;
}
