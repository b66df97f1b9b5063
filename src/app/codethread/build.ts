import type { SkippedInstance } from '../../protocol/codethread';
import { buildSkeleton } from '../../core/codethread/skeleton';
import { readSourceInstances, type SourceInstance } from '../../core/codethread/sources';
import { implementationTaskStatement } from '../../core/codethread/statement';
import { codeThreadTask, pr0RefName } from '../../core/codethread/task';
import { parsePatch } from '../../core/patch/parse';
import { isUserError } from '../../core/util/errors';
import { CommitFiles, diffCommits, resolveCommit, writePr0Commit } from '../../infra/codethread/pr0Commit';
import { ensureLocalSource, type RepoSource } from '../../infra/git/mirror';
import { TreeSitterParser } from '../../infra/treesitter/parser';

export interface BuildTasksRequest {
  /** The benchmark file's name, for messages. */
  readonly fileName: string;
  readonly text: string;
  readonly repo: RepoSource;
  readonly instanceIds?: readonly string[];
  readonly log?: (line: string) => void;
}

export interface BuildTasksResult {
  /** One chain record per built task, in the input's order (the lines of the tasks file). */
  readonly tasks: Record<string, unknown>[];
  readonly skipped: SkippedInstance[];
}

/**
 * `codethread build` (docs/reference/codethread.md): every instance is read and checked first (a
 * bad one throws, naming file, line and field, before anything is written); then, per instance,
 * the skeleton is built from the base commit, PR0 is written into the repository under
 * refs/chainlens/codethread/<instance>, and the two-step chain is assembled. Instances without a
 * target function are skipped with the reason. The caller writes the tasks file.
 */
export async function buildCodeThreadTasks(req: BuildTasksRequest): Promise<BuildTasksResult> {
  const sources = readSourceInstances(req.fileName, req.text, req.instanceIds);
  const parser = new TreeSitterParser();
  const tasks: Record<string, unknown>[] = [];
  const skipped: SkippedInstance[] = [];
  for (const source of sources) {
    const id = source.step.instanceId;
    const outcome = await buildOne(source, req, parser);
    if ('reason' in outcome) {
      skipped.push({ instance_id: id, ...outcome });
      req.log?.(`${id}: skipped (${outcome.reason}): ${outcome.detail}`);
    } else {
      tasks.push(outcome.task);
      req.log?.(`${id}: built (${outcome.targets} target function${outcome.targets === 1 ? '' : 's'})`);
    }
  }
  return { tasks, skipped };
}

type Outcome =
  { task: Record<string, unknown>; targets: number } | { reason: SkippedInstance['reason']; detail: string };

async function buildOne(source: SourceInstance, req: BuildTasksRequest, parser: TreeSitterParser): Promise<Outcome> {
  if (source.baseCommit === null)
    return {
      reason: 'base-commit-missing',
      detail: 'the chain records no commit_hash for the fix before it, so its base commit is unknown',
    };
  let repo: string;
  try {
    repo = await ensureLocalSource(req.repo, source.baseCommit, req.log);
  } catch (e) {
    if (!isUserError(e)) throw e;
    return { reason: 'base-commit-missing', detail: e.message };
  }
  const base = await resolveCommit(repo, source.baseCommit);
  if (!base) return { reason: 'base-commit-missing', detail: `commit ${source.baseCommit} is not in ${repo}` };
  const files = new CommitFiles(repo, base);
  const skeleton = await buildSkeleton({
    goldPatch: parsePatch(source.step.goldPatch, `${source.step.instanceId} patch`),
    readFile: (path) => files.read(path),
    parser,
  });
  if (skeleton.kind === 'skipped') return { reason: skeleton.reason, detail: skeleton.detail };
  const pr0 = await writePr0Commit(
    repo,
    base,
    skeleton.files.map((f) => ({ path: f.path, text: f.skeleton })),
    pr0RefName(source.step.instanceId),
  );
  const implementationGold = await diffCommits(
    repo,
    pr0,
    base,
    skeleton.files.map((f) => f.path),
  );
  const task = codeThreadTask({
    source: { ...source, baseCommit: base },
    pr0Commit: pr0,
    implementationGold,
    statement: implementationTaskStatement(skeleton.files),
    targets: skeleton.targets,
  });
  return { task, targets: skeleton.targets.length };
}
