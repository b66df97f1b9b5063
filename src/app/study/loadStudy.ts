import { dirname, resolve } from 'node:path';
import { describeIssues, jsonPath } from '../../core/formats/issues';
import { loadChain } from '../../core/formats/loadChain';
import { loadRecordedAuthors } from '../../core/formats/trajectoryPredictions';
import { assignSessions, type Sessions } from '../../core/study/assignment';
import { checkStudy, type TaskShape } from '../../core/study/checkStudy';
import { UserError } from '../../core/util/errors';
import type { Chain, Prediction } from '../../protocol/chain';
import { StudyFileSchema, type StudyFile, type StudyTask } from '../../protocol/study';
import { readUserFile } from '../../infra/files';
import { parseRepoSource, type RepoSource } from '../../infra/git/mirror';

/** A task of a study, with its chain read and checked. */
export interface LoadedTask {
  readonly task: StudyTask;
  readonly chain: Chain;
  readonly chainPath: string;
  readonly source: RepoSource;
  readonly predictions: { readonly byInstance: Map<string, Prediction>; readonly path: string } | null;
}

export interface LoadedStudy {
  /** Absolute path of the study file. */
  readonly file: string;
  readonly study: StudyFile;
  readonly tasks: ReadonlyMap<string, LoadedTask>;
  /** Each participant's tasks in solving order (explicit, or generated from the seed). */
  readonly sessions: Sessions;
}

/**
 * Reads a study file and everything it names (chains, predictions, repositories), and checks the
 * study's rules (core/study/checkStudy). Every problem is collected and thrown together, one line
 * each naming the file and the JSON path, before anything is checked out or written.
 */
export function loadStudy(path: string): LoadedStudy {
  const file = resolve(path);
  const text = readUserFile(file, 'study file');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UserError(`study file ${file} is not valid JSON`, 'input', [`${file}: ${(e as Error).message}`]);
  }
  const parsed = StudyFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new UserError(`study file ${file} is not valid`, 'input', describeIssues(file, parsed.error));
  const study = parsed.data;
  const dir = dirname(file);
  const problems: string[] = [];
  const tasks = new Map<string, LoadedTask>();
  const shapes = new Map<string, TaskShape>();
  study.tasks.forEach((task, i) => {
    const at = (field: string, e: unknown): void => {
      if (!(e instanceof UserError)) throw e;
      problems.push(`${file}: ${jsonPath(['tasks', i, field])}: ${e.message}`, ...e.details.map((d) => `  ${d}`));
    };
    let chain: Chain;
    const chainPath = resolve(dir, task.chain);
    try {
      chain = loadChain(chainPath, readUserFile(chainPath, 'chain file'), {
        chainId: task.chainId,
        instanceIds: task.instances,
      });
    } catch (e) {
      return at('chain', e);
    }
    let source: RepoSource;
    try {
      source = parseRepoSource(task.repo, dir);
    } catch (e) {
      return at('repo', e);
    }
    let predictions: LoadedTask['predictions'] = null;
    if (task.predictions) {
      const predictionsPath = resolve(dir, task.predictions);
      try {
        // One predictions file may serve several tasks: only the chain's instances are used.
        const all = loadRecordedAuthors(predictionsPath, readUserFile(predictionsPath, 'predictions file'));
        const ids = new Set(chain.steps.map((s) => s.instanceId));
        predictions = { byInstance: new Map([...all].filter(([id]) => ids.has(id))), path: predictionsPath };
      } catch (e) {
        return at('predictions', e);
      }
    }
    shapes.set(task.id, {
      steps: chain.steps.length,
      predicted: chain.steps.map((s) => predictions?.byInstance.has(s.instanceId) ?? false),
    });
    tasks.set(task.id, { task, chain, chainPath, source, predictions });
  });
  problems.push(...checkStudy(file, study, shapes));
  if (problems.length)
    throw new UserError(
      `study file ${file} has ${problems.filter((p) => !p.startsWith(' ')).length} problem(s)`,
      'input',
      problems,
    );
  return { file, study, tasks, sessions: assignSessions(study) };
}
