// The two sides of an agreement: one labeller each. A run's shared labels file holds every
// labeller of the run, so comparing it with itself (or with a file holding the same people)
// would pair each label with itself and report perfect agreement; such inputs are refused with
// what each side holds, and one labeller of a shared file can be picked by name.
import type { DriftLabelRecord } from '../../protocol/labels';
import { UserError } from '../util/errors';
import { pairsByRun } from './agreement';

export interface AgreementSide {
  /** The file (or name) the records came from, as the person gave it. */
  readonly name: string;
  readonly records: readonly DriftLabelRecord[];
  /** Keep only this labeller's records (a shared file). */
  readonly labeller?: string;
}

export interface CheckedSide {
  readonly name: string;
  readonly labeller: string;
  readonly source: DriftLabelRecord['source'];
  readonly records: readonly DriftLabelRecord[];
}

/** `ada (12), bob (10)`: who labelled how much, most first. */
export function labellerCounts(records: readonly DriftLabelRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.labeller, (counts.get(r.labeller) ?? 0) + 1);
  return [...counts]
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .map(([n, c]) => `${n} (${c})`)
    .join(', ');
}

function checkSide(side: AgreementSide, flag: string): CheckedSide {
  const chosen = side.labeller === undefined ? side.records : side.records.filter((r) => r.labeller === side.labeller);
  if (side.records.length === 0) throw new UserError(`${side.name}: holds no drift labels`, 'input');
  if (chosen.length === 0)
    throw new UserError(
      `${side.name}: no labels by '${side.labeller}' (labellers: ${labellerCounts(side.records)})`,
      'input',
    );
  const labellers = new Set(chosen.map((r) => r.labeller));
  if (labellers.size > 1)
    throw new UserError(
      `${side.name}: holds the labels of ${labellers.size} labellers (${labellerCounts(chosen)}); agreement compares one labeller with another: pick one with ${flag} <name>`,
      'input',
    );
  const sources = new Set(chosen.map((r) => r.source));
  if (sources.size > 1)
    throw new UserError(
      `${side.name}: mixes a person's labels and ChainLens's suggestions under the labeller '${chosen[0].labeller}'; keep them in separate files`,
      'input',
    );
  return { name: side.name, labeller: chosen[0].labeller, source: chosen[0].source, records: chosen };
}

/** Both sides checked: one labeller each, and not the same one. */
export function checkAgreementSides(
  a: AgreementSide,
  b: AgreementSide,
  flags: { a: string; b: string },
): [CheckedSide, CheckedSide] {
  const ca = checkSide(a, flags.a);
  const cb = checkSide(b, flags.b);
  if (ca.labeller === cb.labeller && ca.source === cb.source)
    throw new UserError(
      `${a.name} and ${b.name}: both sides are the labels of '${ca.labeller}'; agreement needs two labellers`,
      'input',
    );
  return [ca, cb];
}

/** One line saying what was paired with what, and on which key. */
export function describePairing(a: CheckedSide, b: CheckedSide): string {
  const side = (s: CheckedSide) =>
    `${s.labeller} (${s.source === 'suggested' ? 'ChainLens suggestions' : 'human'}, ${s.records.length} record${s.records.length === 1 ? '' : 's'} in ${s.name})`;
  const key = pairsByRun(a.records, b.records)
    ? 'run, step, file and symbol (or overlapping lines)'
    : 'chain, step, file and symbol (or overlapping lines); runs are not recorded in every label, so two runs of one chain count as one';
  return `paired ${side(a)} with ${side(b)} by ${key}`;
}
