import type { StepAnalysis } from '../../protocol/analysis';
import type { DriftLabelRecord } from '../../protocol/labels';

export interface SuggestionContext {
  readonly chain: string;
  readonly step: number;
  readonly instance: string;
  /** ISO time stamped on the records. */
  readonly time: string;
  readonly labeller?: string;
}

/**
 * The primary drift suggestion of each symbol as a label record with `source: 'suggested'`, so
 * a person's labels can be compared with ChainLens's suggestions by the same agreement code.
 */
export function suggestionsAsLabels(analysis: StepAnalysis, ctx: SuggestionContext): DriftLabelRecord[] {
  return analysis.drift
    .filter((s) => s.primary)
    .map((s) => ({
      chain: ctx.chain,
      step: ctx.step,
      instance: ctx.instance,
      file: s.file,
      symbol: s.symbol,
      range: s.range,
      label: s.label,
      rationale: s.reason,
      labeller: ctx.labeller ?? 'chainlens',
      source: 'suggested' as const,
      time: ctx.time,
    }));
}
