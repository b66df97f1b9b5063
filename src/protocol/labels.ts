import * as z from 'zod';

/** The ten behavioural drift labels of CodeThread (docs/reference/drift-taxonomy.md), spelled exactly as there. */
export const DRIFT_LABELS = [
  'EQUIVALENT',
  'STYLE',
  'ALGORITHM',
  'INPUT GATING',
  'SILENT FALLBACK',
  'ERROR HANDLING',
  'RETURN SHAPE',
  'EXTERNAL EFFECTS',
  'EXTRA EDITS',
  'INCOMPLETE',
] as const;
export const DriftLabelSchema = z.enum(DRIFT_LABELS);
export type DriftLabel = z.infer<typeof DriftLabelSchema>;

/** A: compatible, B: divergent, C: scope, D: failure. */
export const DriftGroupSchema = z.enum(['A', 'B', 'C', 'D']);
export type DriftGroup = z.infer<typeof DriftGroupSchema>;

export const LineRangeSchema = z
  .object({
    startLine: z.number().int().positive(),
    endLine: z.number().int().positive(),
  })
  .refine((r) => r.endLine >= r.startLine, { message: 'endLine must not be before startLine', path: ['endLine'] });

/**
 * One drift label, one JSONL line. A target is (run, chain, step, instance, file, symbol) when
 * the symbol is known, else the same with the line range in place of the symbol; each labeller
 * labels a target once (a later record replaces an earlier one). `source: 'suggested'` marks
 * heuristic suggestions written by ChainLens; people write `human` labels.
 */
export const DriftLabelRecordSchema = z.object({
  chain: z.string().min(1),
  /**
   * The run whose step was labelled (docs/run-state.md): two runs of one chain are two targets.
   * Absent in files written before runs were recorded; those pair by chain alone.
   */
  run: z.string().min(1).optional(),
  step: z.number().int().positive(),
  instance: z.string().min(1),
  file: z.string().min(1),
  /** Qualified name (`Class.method`), or null for a file/range-level label. */
  symbol: z.string().min(1).nullable(),
  range: LineRangeSchema,
  label: DriftLabelSchema,
  rationale: z.string(),
  labeller: z.string().min(1),
  source: z.enum(['human', 'suggested']),
  time: z.iso.datetime({ offset: true }),
});
export type DriftLabelRecord = z.infer<typeof DriftLabelRecordSchema>;
