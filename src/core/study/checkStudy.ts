import type { StudyFile } from '../../protocol/study';
import { jsonPath } from '../formats/issues';
import { isPersonCondition } from './assignment';

/** What the study's chains look like, as far as the study's rules need (read by the caller). */
export interface TaskShape {
  readonly steps: number;
  /** Per step: whether the task's predictions file holds an agent patch for it. */
  readonly predicted: readonly boolean[];
}

/**
 * The study's rules beyond its schema (docs/study.md), one line per problem, each naming the file
 * and the JSON path: ids are unique; every condition fits every task's chain; steps before a
 * person's are gold or recorded (Seq builds them before the person starts); recorded steps have a
 * predictions file; an explicit assignment names known participants, tasks and conditions, gives
 * no one the same task twice and only conditions a person solves in; a generated one has enough
 * participants for each task to get each condition.
 */
export function checkStudy(file: string, study: StudyFile, shapes: ReadonlyMap<string, TaskShape>): string[] {
  const problems: string[] = [];
  const at = (path: PropertyKey[], message: string) => problems.push(`${file}: ${jsonPath(path)}: ${message}`);
  duplicates(study.tasks.map((t) => t.id)).forEach((i) =>
    at(['tasks', i, 'id'], `task '${study.tasks[i].id}' is listed twice`),
  );
  duplicates(study.conditions.map((c) => c.name)).forEach((i) =>
    at(['conditions', i, 'name'], `condition '${study.conditions[i].name}' is listed twice`),
  );
  duplicates(study.participants).forEach((i) =>
    at(['participants', i], `participant '${study.participants[i]}' is listed twice`),
  );

  const personConditions = study.conditions.filter(isPersonCondition);
  if (personConditions.length === 0)
    at(
      ['conditions'],
      'no condition has a step authored by a person (human), so there is nothing for participants to solve',
    );

  study.conditions.forEach((condition, ci) => {
    for (const [ti, task] of study.tasks.entries()) {
      const shape = shapes.get(task.id);
      if (shape && shape.steps !== condition.authors.length)
        at(
          ['conditions', ci, 'authors'],
          `condition '${condition.name}' names ${condition.authors.length} author(s), but task '${task.id}' (${task.chain}) has ${shape.steps} steps`,
        );
      if (condition.authors.includes('recorded') && !task.predictions)
        at(
          ['tasks', ti, 'predictions'],
          `condition '${condition.name}' has recorded steps, so task '${task.id}' needs a predictions file holding the agent's patches`,
        );
      else if (shape && task.predictions)
        condition.authors.forEach((author, si) => {
          if (author === 'recorded' && si < shape.steps && !shape.predicted[si])
            at(
              ['tasks', ti, 'predictions'],
              `condition '${condition.name}' has step ${si + 1} recorded, but ${task.predictions} holds no patch for step ${si + 1} of task '${task.id}'`,
            );
        });
    }
    const firstPerson = condition.authors.indexOf('human');
    condition.authors.slice(0, Math.max(0, firstPerson)).forEach((author, si) => {
      if (author === 'agent')
        at(
          ['conditions', ci, 'authors', si],
          `step ${si + 1} of '${condition.name}' comes before a person's step and is authored by an attached agent; in a study session it must be gold or recorded`,
        );
    });
  });

  const { assignment } = study;
  if (assignment.kind === 'generated') {
    if (personConditions.length > 0 && study.participants.length < personConditions.length)
      at(
        ['participants'],
        `a generated assignment gives each task each of the ${personConditions.length} conditions a person solves in (${personConditions.map((c) => c.name).join(', ')}), which needs at least ${personConditions.length} participants, not ${study.participants.length}`,
      );
    return problems;
  }
  const tasks = new Set(study.tasks.map((t) => t.id));
  const conditions = new Map(study.conditions.map((c) => [c.name, c]));
  const participants = new Set(study.participants);
  for (const [participant, sessionTasks] of Object.entries(assignment.sessions)) {
    const base = ['assignment', 'sessions', participant];
    if (!participants.has(participant)) at(base, `'${participant}' is not one of the study's participants`);
    const seen = new Map<string, number>();
    sessionTasks.forEach((entry, i) => {
      if (!tasks.has(entry.task))
        at([...base, i, 'task'], `unknown task '${entry.task}' (tasks: ${[...tasks].join(', ')})`);
      const condition = conditions.get(entry.condition);
      if (!condition)
        at(
          [...base, i, 'condition'],
          `unknown condition '${entry.condition}' (conditions: ${[...conditions.keys()].join(', ')})`,
        );
      else if (!isPersonCondition(condition))
        at([...base, i, 'condition'], `condition '${entry.condition}' has no step a person solves`);
      const earlier = seen.get(entry.task);
      if (earlier !== undefined)
        at([...base, i, 'task'], `'${participant}' is assigned task '${entry.task}' twice (also at index ${earlier})`);
      else seen.set(entry.task, i);
    });
  }
  for (const participant of study.participants)
    if (!(participant in assignment.sessions))
      at(['assignment', 'sessions'], `participant '${participant}' has no tasks`);
  return problems;
}

/** Indexes of values that occurred earlier in the list. */
function duplicates(values: readonly string[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  values.forEach((v, i) => {
    if (seen.has(v)) out.push(i);
    seen.add(v);
  });
  return out;
}
