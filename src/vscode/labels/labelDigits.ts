import { DRIFT_LABELS, type DriftLabel } from '../../protocol/labels';

/** Digit key of each label in the quick pick: 1..9, then 0 for the tenth. */
export function digitOf(index: number): string {
  return String((index + 1) % 10);
}

export function labelForDigit(value: string): DriftLabel | undefined {
  if (!/^\d$/.test(value)) return undefined;
  const i = value === '0' ? 9 : Number(value) - 1;
  return DRIFT_LABELS[i];
}
