import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeIssues } from '../../core/formats/issues';
import { UserError } from '../../core/util/errors';
import type { SweciRecord } from '../../protocol/sweci';
import { sweciRecordSchema } from '../run/stateSchemas';
import { writeFileAtomic } from '../files';

/**
 * A SWE-CI run's own files, in the run's state folder (outside the work tree, docs/run-state.md):
 *   runs/<run>.sweci.json                 the task, its two test runs and every graded iteration
 *   runs/<run>/sweci/init/{base,oracle}/  the logs of `sweci init`'s two test runs
 *   runs/<run>/sweci/iteration-<i>/       requirement.md (the Architect's), test_output.log
 * Writes are atomic: a recorded iteration is never lost to a crash.
 */
export class SweciStore {
  constructor(private readonly stateRoot: string) {}

  recordPath(runId: string): string {
    return join(this.stateRoot, 'runs', `${runId}.sweci.json`);
  }

  folder(runId: string, ...parts: string[]): string {
    return join(this.stateRoot, 'runs', runId, 'sweci', ...parts);
  }

  iterationDir(runId: string, iteration: number): string {
    return this.folder(runId, `iteration-${iteration}`);
  }

  requirementPath(runId: string, iteration: number): string {
    return join(this.iterationDir(runId, iteration), 'requirement.md');
  }

  /** The record, or null when the run is not a SWE-CI run. A damaged file is an error naming it. */
  read(runId: string): SweciRecord | null {
    const path = this.recordPath(runId);
    if (!existsSync(path)) return null;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      throw new UserError(`ChainLens state file ${path} is corrupt: ${(e as Error).message}`, 'state');
    }
    const parsed = sweciRecordSchema().safeParse(raw);
    if (!parsed.success)
      throw new UserError(
        `ChainLens state file ${path} is not a valid SWE-CI record`,
        'state',
        describeIssues(path, parsed.error),
      );
    return parsed.data;
  }

  write(record: SweciRecord): void {
    writeFileAtomic(this.recordPath(record.runId), JSON.stringify(record, null, 2) + '\n');
  }

  readRequirement(runId: string, iteration: number): string | null {
    const path = this.requirementPath(runId, iteration);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  }

  writeRequirement(runId: string, iteration: number, text: string): string {
    const path = this.requirementPath(runId, iteration);
    writeFileAtomic(path, text.endsWith('\n') ? text : text + '\n');
    return path;
  }
}
