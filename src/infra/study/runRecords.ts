import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as z from 'zod';
import { describeIssues } from '../../core/formats/issues';
import type { StepClock } from '../../core/study/timeOnTask';
import { UserError } from '../../core/util/errors';
import {
  StudyRunSchema,
  StudyTimeSchema,
  StudyUngradedSchema,
  type StudyRun,
  type StudyTime,
} from '../../protocol/studyRecords';
import { writeFileAtomic } from '../files';

/**
 * A study run's records, in the run's state folder (docs/run-state.md), never in the work tree:
 * `runs/<run>/study/run.json` (which study, participant, task, condition and rules) and
 * `runs/<run>/study/time.json` (time on task per step). A folder of their own, so the window's
 * watch on `runs/*.json` does not re-read the run each time the clock is saved.
 */
export class StudyRunRecords {
  constructor(
    /** The run's state folder (RunStore.root). */
    private readonly stateRoot: string,
    private readonly runId: string,
  ) {}

  private path(name: string): string {
    return join(this.stateRoot, 'runs', this.runId, 'study', name);
  }

  /** The run's study records are (still) there: false once its participant was withdrawn (state deleted). */
  exists(): boolean {
    return existsSync(join(this.stateRoot, 'runs', this.runId, 'study'));
  }

  readRun(): StudyRun | undefined {
    return read(this.path('run.json'), StudyRunSchema, 'study run record');
  }

  writeRun(run: StudyRun): void {
    writeFileAtomic(this.path('run.json'), JSON.stringify(run, null, 2) + '\n');
  }

  /**
   * Person steps submitted with grading turned off (`study submit --no-grade`): the one reason a
   * submitted step of a study graded here has no evaluation other than a submit cut short
   * (app/study/pendingGrades.ts grades those).
   */
  ungradedByChoice(): number[] {
    return read(this.path('ungraded.json'), StudyUngradedSchema, 'study ungraded-steps record')?.steps ?? [];
  }

  setUngradedByChoice(step: number, ungraded: boolean): void {
    const now = this.ungradedByChoice().filter((s) => s !== step);
    if (ungraded) now.push(step);
    writeFileAtomic(this.path('ungraded.json'), JSON.stringify({ steps: now.sort((a, b) => a - b) }) + '\n');
  }

  readTime(): StudyTime {
    return read(this.path('time.json'), StudyTimeSchema, 'time-on-task record') ?? { schema: 1, steps: {} };
  }

  clock(step: number): StepClock | undefined {
    return this.readTime().steps[String(step)];
  }

  /** Saves one step's clock (atomic: a kill leaves the previous save, never a torn file). */
  writeClock(step: number, clock: StepClock): void {
    const time = this.readTime();
    const next: StudyTime = { schema: 1, steps: { ...time.steps, [String(step)]: clock } };
    writeFileAtomic(this.path('time.json'), JSON.stringify(next) + '\n');
  }
}

function read<T>(path: string, schema: z.ZodType<T>, what: string): T | undefined {
  if (!existsSync(path)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UserError(`${what} ${path} is not valid JSON (${(e as Error).message})`, 'state');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new UserError(`${what} ${path} is not valid`, 'state', describeIssues(path, parsed.error));
  return parsed.data;
}

export { read as readRecord };
