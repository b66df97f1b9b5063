import type { ChainStep } from '../../protocol/chain';
import type { CodeThreadMeta, TargetFunction } from '../../protocol/codethread';
import type { SourceInstance } from './sources';

/** Step 1's instance id: the original id with this suffix (predictions for PR1 use it). */
export const IMPLEMENTATION_SUFFIX = '.implementation';

/** The chain id of the CodeThread task built from an instance. */
export function codeThreadChainId(instanceId: string): string {
  return `codethread.${instanceId}`;
}

/** Where `codethread build` keeps PR0 in the repository it was given. */
export function pr0RefName(instanceId: string): string {
  // git refuses some characters and sequences in ref names (git check-ref-format).
  const safe = instanceId
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/\.{2,}/g, '_')
    .replace(/^\.|\.$|\.lock$/g, '_');
  return `refs/chainlens/codethread/${safe}`;
}

export interface TaskParts {
  readonly source: SourceInstance & { readonly baseCommit: string };
  /** The PR0 commit (a root commit: see docs/reference/codethread.md). */
  readonly pr0Commit: string;
  /** PR0 -> base: the Implementation Task's gold patch. */
  readonly implementationGold: string;
  readonly statement: string;
  readonly targets: readonly TargetFunction[];
}

/** A step's grading fields as a CodeThread task file carries them (ChainSWE names, plus what grading needs). */
function gradingFields(step: ChainStep): Record<string, unknown> {
  return {
    test_cmds: step.testCmd,
    ...(step.version !== undefined ? { version: step.version } : {}),
    ...(step.logParser !== undefined ? { log_parser: step.logParser } : {}),
    ...(step.evalType !== undefined ? { eval_type: step.evalType } : {}),
    ...(step.buildCmd !== undefined ? { build_cmd: step.buildCmd } : {}),
  };
}

/**
 * One CodeThread task as a chain record: a ChainSWE chain (so validate, checkout, eval, compare
 * read it) whose base_commit is PR0, with two bug fixes: the Implementation Task (PR0 -> PR1,
 * gold = the removed bodies, graded by the PR1 filter against the instance's tests) and the
 * original instance unchanged (PR1 -> PR2).
 */
export function codeThreadTask(parts: TaskParts): Record<string, unknown> {
  const { source, pr0Commit } = parts;
  const step = source.step;
  const meta: CodeThreadMeta = {
    instance_id: step.instanceId,
    original_base_commit: source.baseCommit,
    benchmark: source.benchmark,
    ...(source.taskType ? { task_type: source.taskType } : {}),
    targets: [...parts.targets],
    pr0_ref: pr0RefName(step.instanceId),
  };
  const implementationId = `${step.instanceId}${IMPLEMENTATION_SUFFIX}`;
  return {
    continuous_id: codeThreadChainId(step.instanceId),
    repo: source.repo,
    base_commit: pr0Commit,
    source: `CodeThread two-step task built by ChainLens from ${source.benchmark} instance ${step.instanceId}`,
    docker_image: source.dockerImage,
    swebench_instance_ids: [implementationId, step.instanceId],
    codethread: meta,
    bug_fixes: [
      {
        order: 1,
        swebench_instance_id: implementationId,
        problem_statement: parts.statement,
        patch: parts.implementationGold,
        test_patch: step.testPatch,
        FAIL_TO_PASS: step.failToPass,
        PASS_TO_PASS: step.passToPass,
        grading: 'pr1-filter',
        ...gradingFields(step),
      },
      {
        order: 2,
        swebench_instance_id: step.instanceId,
        problem_statement: step.problemStatement,
        patch: step.goldPatch,
        test_patch: step.testPatch,
        FAIL_TO_PASS: step.failToPass,
        PASS_TO_PASS: step.passToPass,
        ...(step.createdAt ? { date: step.createdAt } : {}),
        ...(step.commitHash ? { commit_hash: step.commitHash } : {}),
        ...(step.hints ? { hints_text: step.hints } : {}),
        ...gradingFields(step),
      },
    ],
  };
}
