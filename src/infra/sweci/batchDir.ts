import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeIssues } from '../../core/formats/issues';
import { UserError } from '../../core/util/errors';
import { SweciBatchManifestSchema, type SweciBatchManifest } from '../../protocol/sweciBatch';
import { writeFileAtomic } from '../files';
import { acquireLock, type LockHandle } from '../run/runLock';

/**
 * A SWE-CI batch's run directory (docs/sweci.md, "A whole dataset"):
 *   sweci-batch.json               the manifest (dataset, tasks, agents, limit, policies)
 *   prepared/<task>/               a task measured once for every agent: repository, init logs,
 *                                  prepared.json (written last: a task without it is prepared again)
 *   runs/<agent>/<task>/           the work tree of one agent's run of one task; its SWE-CI record
 *                                  is in the run's state folder, as for `sweci init`
 *   batch.lock                     held by the one batch process working on the directory
 */
export class SweciBatchDir {
  readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }

  get manifestPath(): string {
    return join(this.root, 'sweci-batch.json');
  }

  static isOne(root: string): boolean {
    return existsSync(join(resolve(root), 'sweci-batch.json'));
  }

  readManifest(): SweciBatchManifest {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.manifestPath, 'utf8'));
    } catch (e) {
      throw new UserError(
        `${this.manifestPath}: not a readable SWE-CI batch manifest (${(e as Error).message})`,
        'input',
      );
    }
    const parsed = SweciBatchManifestSchema.safeParse(raw);
    if (!parsed.success)
      throw new UserError(
        `${this.manifestPath} is not a valid SWE-CI batch manifest`,
        'input',
        describeIssues(this.manifestPath, parsed.error),
      );
    return parsed.data;
  }

  writeManifest(m: SweciBatchManifest): void {
    writeFileAtomic(this.manifestPath, JSON.stringify(m, null, 2) + '\n');
  }

  preparedDir(taskId: string): string {
    return join(this.root, 'prepared', taskId);
  }

  workTree(agent: string, taskId: string): string {
    return join(this.root, 'runs', agent, taskId);
  }

  lock(): LockHandle {
    return acquireLock(join(this.root, 'batch.lock'), 'sweci batch', `the SWE-CI batch run directory ${this.root}`);
  }
}
