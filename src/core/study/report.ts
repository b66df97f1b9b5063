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

export interface PairedComparison {
  readonly a: string;
  readonly b: string;
  /** Pairs: the i-th observation of a task under a with the i-th under b (by participant id). */
  readonly table: PairedTable;
  readonly pairs: number;
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

function compare(all: readonly Outcome[], a: string, b: string): PairedComparison {
  const byTask = (condition: string) => {
    const map = new Map<string, boolean[]>();
    for (const o of [...all]
      .filter((x) => x.condition === condition)
      .sort((x, y) => x.participant.localeCompare(y.participant)))
      map.set(o.task, [...(map.get(o.task) ?? []), o.resolved === true]);
    return map;
  };
  const as = byTask(a);
  const bs = byTask(b);
  const pairs: [boolean, boolean][] = [];
  for (const [task, left] of as) {
    const right = bs.get(task) ?? [];
    for (let i = 0; i < Math.min(left.length, right.length); i++) pairs.push([left[i], right[i]]);
  }
  const table = pairedTable(pairs);
  return { a, b, table, pairs: pairs.length, pValue: mcnemarExact(table.onlyA, table.onlyB) };
}
