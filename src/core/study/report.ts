import type { StudyRow } from '../../protocol/studyRecords';
import {
  mcnemarExact,
  pairedTable,
  spread,
  wilsonInterval,
  type PairedTable,
  type Proportion,
  type Spread,
} from '../stats';

/**
 * A study's results from its exported rows (docs/study.md "Report"). A task's outcome under a
 * condition is whether its last step is resolved: the chain's end state, which is what the
 * conditions (who authored the steps before it) are compared on. Time on task is over the steps a
 * person solved.
 */
export interface ConditionResult {
  readonly condition: string;
  /** Over the (participant, task) pairs whose last step is graded. */
  readonly outcome: Proportion;
  /** (participant, task) pairs left out of `outcome`: their last step is not submitted and graded yet. */
  readonly pending: number;
  /** Active and wall seconds of the person-solved steps. */
  readonly activeSeconds: Spread & { readonly min: number; readonly max: number };
  readonly wallSeconds: Spread & { readonly min: number; readonly max: number };
}

/** An observation left out of a paired comparison, and why (a matched design pairs one to one). */
export interface UnpairedTask {
  readonly task: string;
  /** Observations of the task under a and under b that no match paired. */
  readonly a: number;
  readonly b: number;
  readonly why: string;
}

export interface PairedComparison {
  readonly a: string;
  readonly b: string;
  /**
   * Matched pairs (docs/study.md "Report"): the same participant's outcomes of a task under a
   * and b (within-subject), else a task's one outcome under a with its one outcome under b.
   */
  readonly table: PairedTable;
  readonly pairs: number;
  /** How many pairs are matched by participant and task, how many by task alone. */
  readonly byParticipant: number;
  readonly byTask: number;
  /** Tasks with observations no match paired (never paired by order). */
  readonly unpaired: readonly UnpairedTask[];
  readonly pValue: number;
}

export interface StudyReport {
  readonly study: string;
  readonly participants: number;
  readonly rows: number;
  readonly conditions: readonly ConditionResult[];
  readonly comparisons: readonly PairedComparison[];
}

/** One (participant, task) under one condition: its last step's row. */
interface Outcome {
  readonly participant: string;
  readonly task: string;
  readonly condition: string;
  /** null: the last step is not submitted and graded yet (not counted as unresolved). */
  readonly resolved: boolean | null;
}

function outcomes(rows: readonly StudyRow[]): Outcome[] {
  const last = new Map<string, StudyRow>();
  for (const row of rows) {
    const key = `${row.participant}\u0000${row.task}\u0000${row.condition}`;
    const seen = last.get(key);
    if (!seen || row.step > seen.step) last.set(key, row);
  }
  return [...last.values()].map((r) => ({
    participant: r.participant,
    task: r.task,
    condition: r.condition,
    resolved: r.resolved,
  }));
}

function withRange(values: number[]): Spread & { min: number; max: number } {
  return {
    ...spread(values),
    min: values.length ? Math.min(...values) : NaN,
    max: values.length ? Math.max(...values) : NaN,
  };
}

/**
 * `pairs`: which conditions to compare (a, b); default every pair of conditions in the order
 * they first appear, each compared on the tasks both have.
 */
export function studyReport(
  study: string,
  rows: readonly StudyRow[],
  pairs?: readonly (readonly [string, string])[],
): StudyReport {
  const every = outcomes(rows);
  // A session still under way has no outcome yet: counting its open step as unresolved would
  // lower the rate of whichever condition is being solved at the moment.
  const all = every.filter((o) => o.resolved !== null);
  const names = [...new Set(rows.map((r) => r.condition))];
  const conditions = names.map((condition): ConditionResult => {
    const mine = all.filter((o) => o.condition === condition);
    const solved = rows.filter((r) => r.condition === condition && r.author === 'human');
    return {
      condition,
      outcome: wilsonInterval(mine.filter((o) => o.resolved).length, mine.length),
      pending: every.filter((o) => o.condition === condition && o.resolved === null).length,
      activeSeconds: withRange(solved.flatMap((r) => (r.activeSeconds === null ? [] : [r.activeSeconds]))),
      wallSeconds: withRange(solved.flatMap((r) => (r.wallSeconds === null ? [] : [r.wallSeconds]))),
    };
  });
  const wanted = pairs ?? names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b] as const));
  const comparisons = wanted.map(([a, b]) => compare(all, a, b));
  return {
    study,
    participants: new Set(rows.map((r) => r.participant)).size,
    rows: rows.length,
    conditions,
    comparisons,
  };
}

function whyUnpaired(a: string, left: number, b: string, right: number): string {
  if (right === 0) return `${left} outcome(s) under ${a}, none left under ${b}`;
  if (left === 0) return `${right} outcome(s) under ${b}, none left under ${a}`;
  return `${left} outcome(s) under ${a} and ${right} under ${b} by different participants: no one-to-one match`;
}

/**
 * A matched design: within a task, a participant's outcome under a is paired with the same
 * participant's under b (within-subject); what is left of the task is paired by task when exactly
 * one outcome is left on each side (between-subject, one observation per task and condition, as
 * CodeThread pairs HA and AA by instance). Anything else has no one-to-one match and is listed,
 * not paired by order.
 */
function compare(all: readonly Outcome[], a: string, b: string): PairedComparison {
  const byTask = (condition: string) => {
    const map = new Map<string, Outcome[]>();
    for (const o of all) if (o.condition === condition) map.set(o.task, [...(map.get(o.task) ?? []), o]);
    return map;
  };
  const as = byTask(a);
  const bs = byTask(b);
  const pairs: [boolean, boolean][] = [];
  const unpaired: UnpairedTask[] = [];
  let byParticipant = 0;
  let byTaskOnly = 0;
  const tasks = [...new Set([...as.keys(), ...bs.keys()])].sort();
  for (const task of tasks) {
    const left = [...(as.get(task) ?? [])];
    const right = [...(bs.get(task) ?? [])];
    for (const l of [...left]) {
      const match = right.find((r) => r.participant === l.participant);
      if (!match) continue;
      pairs.push([l.resolved === true, match.resolved === true]);
      byParticipant++;
      left.splice(left.indexOf(l), 1);
      right.splice(right.indexOf(match), 1);
    }
    if (left.length === 1 && right.length === 1) {
      pairs.push([left[0].resolved === true, right[0].resolved === true]);
      byTaskOnly++;
    } else if (left.length > 0 || right.length > 0) {
      unpaired.push({ task, a: left.length, b: right.length, why: whyUnpaired(a, left.length, b, right.length) });
    }
  }
  const table = pairedTable(pairs);
  return {
    a,
    b,
    table,
    pairs: pairs.length,
    byParticipant,
    byTask: byTaskOnly,
    unpaired,
    pValue: mcnemarExact(table.onlyA, table.onlyB),
  };
}
