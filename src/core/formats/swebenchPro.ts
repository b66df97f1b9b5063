import type { Chain } from '../../protocol/chain';
import type { LogParserName } from '../../protocol/grading';
import {
  SWE_BENCH_PRO_IMAGE_REPOSITORY,
  SweBenchProInstanceSchema,
  type SweBenchProInstance,
} from '../../protocol/formats/swebenchPro';
import { OptionError, UserError } from '../util/errors';
import { documentLocation, type JsonDocument } from './documents';
import { stepGradingFields } from './harnessFields';
import { imageReferenceProblem } from './imageReference';
import { describeIssues } from './issues';
import { instanceIdProblem, patchProblem } from './stepFields';

/** Fields only SWE-bench Pro instances have; one of them (with `instance_id`) marks a Pro file. */
const PRO_ONLY_FIELDS = ['selected_test_files_to_run', 'before_repo_set_cmd', 'dockerhub_tag', 'fail_to_pass'];

export function isSweBenchProInstance(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('instance_id' in value)) return false;
  return PRO_ONLY_FIELDS.some((f) => f in value);
}

/** Copies of Pro exports (its harness docs name CSV columns FAIL_TO_PASS / PASS_TO_PASS) read the same. */
function withLowerCaseTestLists(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const v = value as Record<string, unknown>;
  const out = { ...v };
  if (!('fail_to_pass' in v) && 'FAIL_TO_PASS' in v) out.fail_to_pass = v.FAIL_TO_PASS;
  if (!('pass_to_pass' in v) && 'PASS_TO_PASS' in v) out.pass_to_pass = v.PASS_TO_PASS;
  return out;
}

/**
 * The harness parser closest to what a Pro instance's own parser.py reads, by the instance's
 * language: Pro grades each instance with a parser of its own (run_scripts/<id>/parser.py in its
 * harness repository, not in the dataset). A `log_parser` field overrides this.
 */
const PARSER_BY_LANGUAGE: Readonly<Record<string, LogParserName>> = {
  go: 'gotest',
  python: 'pytest',
  js: 'jest',
  ts: 'jest',
  javascript: 'jest',
  typescript: 'jest',
};

/** Pro's problem statement template (helper_code/create_problem_statement.py): statement, requirements, interfaces. */
function proProblemStatement(i: SweBenchProInstance): string {
  if (!i.requirements && !i.interface) return i.problem_statement;
  return `${i.problem_statement}\n\nRequirements:\n${i.requirements ?? ''}\n\nNew interfaces introduced:\n${i.interface ?? ''}`;
}

/**
 * SWE-bench Pro instances of one repository as a chain, in the order given by `instanceIds` or
 * else as listed. The image is `jefzda/sweap-images:<dockerhub_tag>`; the repository is at /app.
 * Pro runs tests with a per-instance run_script.sh the dataset does not carry, so a step has no
 * test command unless the instance gives one in `test_cmds`.
 */
export function chainFromSweBenchPro(fileName: string, docs: JsonDocument[], instanceIds?: string[]): Chain {
  const items: { instance: SweBenchProInstance; where: string }[] = [];
  const problems: string[] = [];
  for (const doc of docs) {
    const location = documentLocation(fileName, doc);
    const values = Array.isArray(doc.value) ? doc.value : [doc.value];
    values.forEach((value, i) => {
      const prefix = Array.isArray(doc.value) ? [i] : [];
      const parsed = SweBenchProInstanceSchema.safeParse(withLowerCaseTestLists(value));
      if (!parsed.success) {
        problems.push(...describeIssues(location, parsed.error, prefix));
        return;
      }
      const where = `${location}: ${prefix.length ? `$[${i}]` : '$'}`;
      const fields = fieldProblems(parsed.data, where);
      if (fields.length) problems.push(...fields);
      else items.push({ instance: parsed.data, where });
    });
  }
  if (problems.length) throw new UserError(`${fileName} has invalid SWE-bench Pro instances`, 'input', problems);

  const byId = new Map(items.map((x) => [x.instance.instance_id, x]));
  let picked = items;
  if (instanceIds && instanceIds.length) {
    const unknown = instanceIds.filter((id) => !byId.has(id));
    if (unknown.length)
      throw new UserError(`${fileName} has no instance ${unknown.map((u) => `'${u}'`).join(', ')}`, 'input', [
        `${fileName}: $[*].instance_id: available: ${[...byId.keys()].slice(0, 10).join(', ')}`,
      ]);
    picked = instanceIds.map((id) => byId.get(id)!);
  }
  const repos = [...new Set(picked.map((x) => x.instance.repo))];
  if (repos.length > 1)
    throw new OptionError(
      'instances',
      `${fileName}: a chain is one repository, but these instances span ${repos.length} (${repos.join(', ')}); pick instances of one repository`,
      'input',
      picked.map((x) => `${x.where}.repo: ${x.instance.repo} (${x.instance.instance_id})`),
    );
  const seen = new Set<string>();
  for (const x of picked) {
    if (seen.has(x.instance.instance_id))
      throw new UserError(`${x.where}.instance_id: duplicate '${x.instance.instance_id}'`, 'input');
    seen.add(x.instance.instance_id);
  }
  const first = picked[0].instance;
  const grading = picked.map((x) => stepGradingFields(x.instance, x.where, problems));
  if (problems.length) throw new UserError(`${fileName} has instances ChainLens cannot grade`, 'input', problems);
  return {
    id:
      picked.length === 1
        ? first.instance_id
        : `${first.instance_id}..${picked[picked.length - 1].instance.instance_id}`,
    repo: first.repo,
    baseCommit: first.base_commit,
    dockerImage:
      first.image ?? (first.dockerhub_tag ? `${SWE_BENCH_PRO_IMAGE_REPOSITORY}:${first.dockerhub_tag}` : null),
    format: 'swebench-pro',
    steps: picked.map(({ instance }, i) => {
      const language = instance.repo_language?.trim().toLowerCase();
      const fallbackParser = language !== undefined ? PARSER_BY_LANGUAGE[language] : undefined;
      return {
        order: i + 1,
        instanceId: instance.instance_id,
        problemStatement: proProblemStatement(instance),
        goldPatch: instance.patch,
        testPatch: instance.test_patch,
        failToPass: instance.fail_to_pass,
        passToPass: instance.pass_to_pass,
        ...grading[i],
        ...(grading[i].logParser === undefined && fallbackParser ? { logParser: fallbackParser } : {}),
        ...(instance.selected_test_files_to_run ? { testFiles: instance.selected_test_files_to_run } : {}),
      };
    }),
  };
}

/** The checks a schema cannot make (stepFields.ts), one line per problem with its JSON path. */
function fieldProblems(i: SweBenchProInstance, where: string): string[] {
  const problems: string[] = [];
  const add = (field: string, problem: string | null) => problem && problems.push(`${where}.${field}: ${problem}`);
  add('instance_id', instanceIdProblem(i.instance_id));
  add('patch', patchProblem(i.patch));
  add('test_patch', patchProblem(i.test_patch));
  if (i.image !== undefined) add('image', imageReferenceProblem(i.image));
  else if (i.dockerhub_tag !== undefined)
    add('dockerhub_tag', imageReferenceProblem(`${SWE_BENCH_PRO_IMAGE_REPOSITORY}:${i.dockerhub_tag}`));
  return problems;
}
