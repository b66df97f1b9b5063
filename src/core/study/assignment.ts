import type { AssignedTask, StudyCondition, StudyFile } from '../../protocol/study';
import { seededRandom, shuffled } from './random';

/** A condition a participant solves in: at least one of its steps is authored by a person. */
export function isPersonCondition(condition: StudyCondition): boolean {
  return condition.authors.includes('human');
}

/** Each participant's tasks in solving order. */
export type Sessions = ReadonlyMap<string, readonly AssignedTask[]>;

/**
 * The study's assignment: the explicit one as written, or a generated one (docs/study.md):
 * every participant solves every task once; the condition of task column c for participant row r
 * is condition (r + c) mod m (a Latin square, so with at least m participants each task gets each
 * of the m person conditions, equally often when the participant count is a multiple of m), and
 * the task order is rotated by r (each task appears in each position across rows). Participants,
 * tasks and conditions are shuffled first with the recorded seed, so the square is not the file's
 * order but the same seed always gives the same assignment.
 */
export function assignSessions(
  study: Pick<StudyFile, 'tasks' | 'conditions' | 'participants' | 'assignment'>,
): Sessions {
  if (study.assignment.kind === 'explicit') {
    const out = new Map<string, readonly AssignedTask[]>();
    for (const participant of study.participants) out.set(participant, study.assignment.sessions[participant] ?? []);
    return out;
  }
  const random = seededRandom(study.assignment.seed);
  const rows = shuffled(study.participants, random);
  const columns = shuffled(
    study.tasks.map((t) => t.id),
    random,
  );
  const conditions = shuffled(
    study.conditions.filter(isPersonCondition).map((c) => c.name),
    random,
  );
  const out = new Map<string, readonly AssignedTask[]>();
  rows.forEach((participant, r) => {
    const tasks = columns.map((task, c) => ({ task, condition: conditions[(r + c) % conditions.length] }));
    const shift = r % tasks.length;
    out.set(participant, [...tasks.slice(shift), ...tasks.slice(0, shift)]);
  });
  // Report in the file's participant order, whatever row each got.
  return new Map(study.participants.map((p) => [p, out.get(p)!]));
}
