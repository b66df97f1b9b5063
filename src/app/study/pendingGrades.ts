import { existsSync } from 'node:fs';
import type { StepEvaluation } from '../../protocol/evaluation';
import type { ParticipantSession } from '../../protocol/studyRecords';
import { EvalStore } from '../../infra/evaluation/evalStore';
import { openWorkspace } from '../../infra/run/workspace';
import { StudyRunRecords } from '../../infra/study/runRecords';
import { StudySessions } from '../../infra/study/sessionFiles';
import { evaluateStep } from '../evaluation';

/** Statuses of a submitted step: each is graded (a patch that is empty or did not apply without a container). */
const SUBMITTED = new Set(['submitted', 'empty_patch', 'patch_failed']);

/**
 * Grades every person step of the participant's runs that was submitted but never graded: a
 * `study submit` (or a window) killed between the submission and its recorded evaluation leaves
 * exactly this, as SWE-CI's submit does (app/sweci/submitIteration.ts). Every study command that
 * opens a session calls it first, and the window when it opens the session (docs/study.md,
 * "Grading"). A study graded elsewhere (a pack) is left alone. Returns the steps graded.
 */
export async function gradeUngradedSubmissions(
  session: ParticipantSession,
  o: {
    log: (line: string) => void;
    signal?: AbortSignal;
    /** How a step is graded (the window grades its open run through its own evaluation service). */
    grade?: (workTree: string, step: number) => Promise<StepEvaluation> | undefined;
  },
): Promise<number> {
  let graded = 0;
  for (const entry of session.tasks) {
    if (!entry.runId || !existsSync(entry.workTree)) continue;
    const ws = await openWorkspace(entry.workTree);
    const records = new StudyRunRecords(ws.store.root, entry.runId);
    const rules = records.readRun();
    if (!rules?.gradeHere) continue;
    const state = ws.store.loadRun(entry.runId);
    if (!state) continue;
    const evaluations = new EvalStore(ws.store.root).readIndex(entry.runId);
    const byChoice = new Set(records.ungradedByChoice());
    for (const [i, step] of state.steps.entries()) {
      if (rules.authors[i] !== 'human' || !step.end || !SUBMITTED.has(step.status)) continue;
      if (byChoice.has(step.order)) continue;
      if (evaluations[`${step.order}:submitted`]) continue;
      if (o.signal?.aborted) return graded;
      o.log(`task ${entry.task}: step ${step.order} was submitted but not graded (interrupted); grading it now`);
      const result = await (o.grade?.(ws.dir, step.order) ??
        evaluateStep({
          dir: ws.dir,
          workspace: ws,
          step: step.order,
          source: 'submitted',
          signal: o.signal,
          onProgress: o.log,
        }));
      if (result.error_kind !== 'cancelled') graded++;
    }
  }
  return graded;
}

/** The same for every participant of the study who ran here (withdrawn ones aside): for export and report. */
export async function gradeUngradedOfStudy(studyName: string, log: (line: string) => void): Promise<number> {
  const sessions = new StudySessions(studyName);
  const withdrawn = sessions.withdrawn();
  let graded = 0;
  for (const session of sessions.list())
    if (!withdrawn.has(session.participant)) graded += await gradeUngradedSubmissions(session, { log });
  return graded;
}
