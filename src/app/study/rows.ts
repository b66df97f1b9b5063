import { existsSync } from 'node:fs';
import { hunkScope } from '../../core/study/hunkScope';
import { totalEdits, wallMs } from '../../core/study/timeOnTask';
import type { StepEvaluation } from '../../protocol/evaluation';
import type { ParticipantSession, StudyRow } from '../../protocol/studyRecords';
import { EvalStore } from '../../infra/evaluation/evalStore';
import { openWorkspace } from '../../infra/run/workspace';
import { StudyRunRecords } from '../../infra/study/runRecords';

/**
 * The export's rows of one participant (docs/study.md "Export"): one per step of every task they
 * started, from the run's state (who authored, applied or not, the patch), its latest graded
 * evaluation of the submitted step, the time-on-task record, and overshoot/undershoot against
 * the step's gold patch, computed now. Nothing is changed.
 */
export async function participantRows(session: ParticipantSession, now = Date.now()): Promise<StudyRow[]> {
  const rows: StudyRow[] = [];
  for (const entry of session.tasks) {
    if (!entry.runId || !existsSync(entry.workTree)) continue;
    const ws = await openWorkspace(entry.workTree);
    const state = ws.store.loadRun(entry.runId);
    const chain = ws.store.loadChain(entry.runId);
    if (!state || !chain) continue;
    const records = new StudyRunRecords(ws.store.root, entry.runId);
    const record = records.readRun();
    const time = records.readTime();
    const evals = new EvalStore(ws.store.root).readIndex(entry.runId);
    for (const [i, step] of state.steps.entries()) {
      const clock = time.steps[String(step.order)];
      const evaluation: StepEvaluation | undefined = evals[`${step.order}:submitted`];
      const patch = step.start && step.end ? await ws.git.diff(step.start, step.end) : null;
      // No gold here (a pack's chain): nothing to measure against, not "every line overshoots".
      const gold = chain.steps[i].goldPatch;
      const scope = patch === null || !gold ? null : hunkScope(patch, gold);
      const f2p = evaluation?.tests_status.FAIL_TO_PASS;
      const p2p = evaluation?.tests_status.PASS_TO_PASS;
      rows.push({
        study: session.study,
        participant: session.participant,
        task: entry.task,
        chain: chain.id,
        condition: entry.condition,
        step: step.order,
        instanceId: step.instanceId,
        author: record?.authors[i] ?? (step.author.kind === 'agent-live' ? 'agent' : step.author.kind),
        status: step.status,
        applied: step.status === 'submitted',
        resolved: evaluation ? evaluation.resolved : null,
        f2pPassed: f2p ? f2p.success.length : null,
        f2pTotal: f2p ? f2p.success.length + f2p.failure.length : null,
        p2pPassed: p2p ? p2p.success.length : null,
        p2pTotal: p2p ? p2p.success.length + p2p.failure.length : null,
        wallSeconds: clock ? wallMs(clock, now) / 1000 : null,
        activeSeconds: clock ? clock.activeMs / 1000 : null,
        pauses: clock ? clock.pauses.length : null,
        testRuns: clock ? clock.testRuns : null,
        edits: clock ? totalEdits(clock) : null,
        reloads: clock ? clock.reloads : null,
        overshootLines: scope?.overshootLines ?? null,
        undershootLines: scope?.undershootLines ?? null,
        patch,
      });
    }
  }
  return rows;
}
