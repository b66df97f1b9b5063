import type { Chain } from '../../protocol/chain';
import { SweBenchInstanceSchema, type SweBenchInstance } from '../../protocol/formats/swebench';
import { OptionError, UserError } from '../util/errors';
import { documentLocation, type JsonDocument } from './documents';
import { stepGradingFields } from './harnessFields';
import { imageReferenceProblem } from './imageReference';
import { describeIssues, jsonPath } from './issues';
import { instanceIdProblem, patchProblem } from './stepFields';

/** SWE-bench's image naming: `swebench/sweb.eval.x86_64.<id, lowercased, "__" -> "_1776_">:latest`. */
export function sweBenchImageName(instanceId: string): string {
  return `swebench/sweb.eval.x86_64.${instanceId.toLowerCase().replace(/__/g, '_1776_')}:latest`;
}

interface Located {
  instance: SweBenchInstance;
  location: string;
  /** JSON path of the instance in its document: '$' or '$[3]'. */
  path: string;
}

/** Every instance of a `.json` list, a single `.json` object, or a `.jsonl` file, validated. */
export function readSweBenchInstances(fileName: string, docs: JsonDocument[]): Located[] {
  const items: { value: unknown; location: string; prefix: (string | number)[] }[] = [];
  for (const doc of docs) {
    const location = documentLocation(fileName, doc);
    if (Array.isArray(doc.value)) doc.value.forEach((value, i) => items.push({ value, location, prefix: [i] }));
    else items.push({ value: doc.value, location, prefix: [] });
  }
  const problems: string[] = [];
  const out: Located[] = [];
  for (const item of items) {
    const parsed = SweBenchInstanceSchema.safeParse(item.value);
    if (!parsed.success) {
      problems.push(...describeIssues(item.location, parsed.error, item.prefix));
      continue;
    }
    const located = { instance: parsed.data, location: item.location, path: jsonPath(item.prefix) };
    const fields = fieldProblems(located);
    if (fields.length) problems.push(...fields);
    else out.push(located);
  }
  if (problems.length) throw new UserError(`${fileName} has invalid SWE-bench instances`, 'input', problems);
  if (out.length === 0)
    throw new UserError(`${fileName} holds no SWE-bench instances`, 'input', [
      `${fileName}: $: the list is empty; a chain needs at least one instance`,
    ]);
  return out;
}

/**
 * Assembles SWE-bench instances of one repository into a chain: in the order of `instanceIds`
 * when given, else by `created_at` (the order the fixes landed upstream).
 */
export function chainFromSweBench(fileName: string, docs: JsonDocument[], instanceIds?: string[]): Chain {
  const all = readSweBenchInstances(fileName, docs);
  const byId = new Map(all.map((x) => [x.instance.instance_id, x]));
  let picked: Located[];
  if (instanceIds && instanceIds.length) {
    const unknown = instanceIds.filter((id) => !byId.has(id));
    if (unknown.length) {
      throw new UserError(`${fileName} has no instance ${unknown.map((u) => `'${u}'`).join(', ')}`, 'input', [
        `${fileName}: $[*].instance_id: available: ${[...byId.keys()].slice(0, 10).join(', ')}`,
      ]);
    }
    const dup = instanceIds.find((id, i) => instanceIds.indexOf(id) !== i);
    if (dup) throw new UserError(`instance '${dup}' is named twice`, 'usage');
    picked = instanceIds.map((id) => byId.get(id)!);
  } else {
    picked = [...all].sort((a, b) => (a.instance.created_at ?? '').localeCompare(b.instance.created_at ?? ''));
  }
  const repos = [...new Set(picked.map((x) => x.instance.repo))];
  if (repos.length > 1) {
    throw new OptionError(
      'instances',
      `${fileName}: a chain is one repository, but these instances span ${repos.length} (${repos.join(', ')}); pick instances of one repository`,
      'input',
      [
        ...picked.map(
          (x) =>
            `${x.location}: ${x.path}.repo: ${x.instance.repo} (${x.instance.instance_id}): a chain needs one repository; pick instances of one repository`,
        ),
      ],
    );
  }
  const seen = new Set<string>();
  for (const x of picked) {
    if (seen.has(x.instance.instance_id))
      throw new UserError(`${x.location}: ${x.path}.instance_id: duplicate '${x.instance.instance_id}'`, 'input');
    seen.add(x.instance.instance_id);
  }
  const first = picked[0].instance;
  const problems: string[] = [];
  const grading = picked.map((x) => stepGradingFields(x.instance, `${x.location}: ${x.path}`, problems));
  if (problems.length) throw new UserError(`${fileName} has instances ChainLens cannot grade`, 'input', problems);
  return {
    id:
      picked.length === 1
        ? first.instance_id
        : `${first.instance_id}..${picked[picked.length - 1].instance.instance_id}`,
    repo: first.repo,
    baseCommit: first.base_commit,
    dockerImage: first.image ?? sweBenchImageName(first.instance_id),
    format: 'swebench',
    steps: picked.map(({ instance }, i) => ({
      ...grading[i],
      order: i + 1,
      instanceId: instance.instance_id,
      problemStatement: instance.problem_statement,
      goldPatch: instance.patch,
      testPatch: instance.test_patch,
      failToPass: instance.FAIL_TO_PASS,
      passToPass: instance.PASS_TO_PASS,
      ...(instance.created_at ? { createdAt: instance.created_at } : {}),
      ...(instance.hints_text ? { hints: instance.hints_text } : {}),
      ...(instance.version !== undefined ? { version: String(instance.version) } : {}),
    })),
  };
}

/** The checks a schema cannot make (stepFields.ts), one line per problem with its JSON path. */
function fieldProblems(x: Located): string[] {
  const problems: string[] = [];
  const add = (field: string, problem: string | null) =>
    problem && problems.push(`${x.location}: ${x.path}.${field}: ${problem}`);
  add('instance_id', instanceIdProblem(x.instance.instance_id));
  add('patch', patchProblem(x.instance.patch));
  add('test_patch', patchProblem(x.instance.test_patch));
  if (x.instance.image !== undefined) add('image', imageReferenceProblem(x.instance.image));
  else if (!instanceIdProblem(x.instance.instance_id))
    // No image field: SWE-bench's naming derives one from the id, which must make a valid name.
    add('instance_id', derivedImageProblem(x.instance.instance_id));
  return problems;
}

function derivedImageProblem(instanceId: string): string | null {
  const problem = imageReferenceProblem(sweBenchImageName(instanceId));
  return problem && `gives no valid SWE-bench image name (${problem}); name the image in an 'image' field`;
}
