import type { DriftGroup, DriftLabel } from '../../protocol/labels';

const GROUP: Record<DriftLabel, DriftGroup> = {
  EQUIVALENT: 'A',
  STYLE: 'A',
  ALGORITHM: 'A',
  'INPUT GATING': 'B',
  'SILENT FALLBACK': 'B',
  'ERROR HANDLING': 'B',
  'RETURN SHAPE': 'B',
  'EXTERNAL EFFECTS': 'B',
  'EXTRA EDITS': 'C',
  INCOMPLETE: 'D',
};

export const GROUP_NAMES: Record<DriftGroup, string> = { A: 'compatible', B: 'divergent', C: 'scope', D: 'failure' };

/** A compatible, B divergent, C scope, D failure (docs/reference/drift-taxonomy.md). */
export function groupOf(label: DriftLabel): DriftGroup {
  return GROUP[label];
}

/**
 * Input/error contract drift: the labels CodeThread found most predictive of later failure
 * (odds ratio 1.83), so the UI singles them out.
 */
export function isIec(label: DriftLabel): boolean {
  return label === 'INPUT GATING' || label === 'SILENT FALLBACK' || label === 'ERROR HANDLING';
}
