import * as z from 'zod';
import type { Chain } from '../../protocol/chain';
import { CodeThreadMetaSchema, StepGradingSchema } from '../../protocol/codethread';
import { UserError } from '../util/errors';
import { chainFromChainSwe } from './chainswe';
import { documentLocation, type JsonDocument } from './documents';
import { stepGradingFields } from './harnessFields';
import { describeIssues } from './issues';

/**
 * A CodeThread task file (docs/reference/codethread.md) is a ChainSWE chain with two bug fixes,
 * a `codethread` object, and per fix what grading needs beyond ChainSWE's fields: the instance's
 * version, log parser, eval type, eval script or build command, and step 1's `grading`.
 */
const CodeThreadFixSchema = z.looseObject({
  grading: StepGradingSchema.optional(),
  version: z.string().optional(),
  log_parser: z.string().optional(),
  eval_type: z.enum(['pass_and_fail', 'fail_only']).optional(),
  eval_script: z.string().optional(),
  build_cmd: z.string().optional(),
  hints_text: z.string().optional(),
});

const CodeThreadChainSchema = z.looseObject({
  codethread: CodeThreadMetaSchema,
  bug_fixes: z.array(CodeThreadFixSchema).length(2, 'a CodeThread task has exactly two steps'),
});

export function isCodeThreadDocument(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'codethread' in value;
}

export function chainFromCodeThread(fileName: string, doc: JsonDocument): Chain {
  const location = documentLocation(fileName, doc);
  const chain = chainFromChainSwe(fileName, doc);
  const parsed = CodeThreadChainSchema.safeParse(doc.value);
  if (!parsed.success)
    throw new UserError(`${location} is not a valid CodeThread task`, 'input', describeIssues(location, parsed.error));
  const { codethread, bug_fixes: fixes } = parsed.data;
  const problems: string[] = [];
  const byOrder = new Map(fixes.map((f, i) => [(f as { order?: number }).order, { fix: f, i }]));
  const steps = chain.steps.map((step) => {
    const { fix, i } = byOrder.get(step.order)!;
    const grading = stepGradingFields(
      { test_cmds: step.testCmd, log_parser: fix.log_parser, eval_type: fix.eval_type, eval_script: fix.eval_script },
      `${location}: $.bug_fixes[${i}]`,
      problems,
    );
    return {
      ...step,
      ...grading,
      ...(fix.build_cmd !== undefined ? { buildCmd: fix.build_cmd } : {}),
      ...(fix.version !== undefined ? { version: fix.version } : {}),
      ...(fix.hints_text ? { hints: fix.hints_text } : {}),
      ...(fix.grading ? { grading: fix.grading } : {}),
    };
  });
  if (steps[0].grading !== 'pr1-filter')
    problems.push(`${location}: $.bug_fixes[0].grading: step 1 of a CodeThread task is graded by 'pr1-filter'`);
  if (steps[0].instanceId === codethread.instance_id || steps[1].instanceId !== codethread.instance_id)
    problems.push(
      `${location}: $.codethread.instance_id: '${codethread.instance_id}' must be step 2's instance (the follow-on issue), not step 1's`,
    );
  if (problems.length) throw new UserError(`${location} is not a valid CodeThread task`, 'input', problems);
  return { ...chain, format: 'codethread', steps, codethread };
}
