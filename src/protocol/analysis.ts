import * as z from 'zod';
import { DriftGroupSchema, DriftLabelSchema } from './labels';
import { SymbolKindSchema } from './symbolKind';

/**
 * The result of analysing one step's patch against its gold patch (docs/reference/analysis.md).
 * Lines are 1-based. "step" lines refer to the file after the step's patch (the work tree at the
 * step's end), "gold" lines to the file after the gold patch, "base" lines to the file before.
 * Everything here is relative to gold, not proof of a bug.
 */
export const AnalysisSideSchema = z.enum(['step', 'gold', 'base']);

export const SideRangeSchema = z.object({
  side: AnalysisSideSchema,
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
});
export type SideRange = z.infer<typeof SideRangeSchema>;

export const EvidenceLineSchema = z.object({
  side: AnalysisSideSchema,
  file: z.string(),
  line: z.number().int().positive(),
  text: z.string(),
});
export type EvidenceLine = z.infer<typeof EvidenceLineSchema>;

export { SymbolKindSchema, type SymbolKind } from './symbolKind';

/** A file or a (file, symbol) pair one patch touches and the other leaves alone. */
export const ScopeEntrySchema = z.object({
  file: z.string(),
  /** Qualified name, `<module>` for top-level code; absent for a whole-file entry. */
  symbol: z.string().optional(),
  kind: SymbolKindSchema.optional(),
  /** Where the changes are: step-side lines for overshoot, gold-side (and step-side, when the symbol exists there) for undershoot. */
  ranges: z.array(SideRangeSchema),
});
export type ScopeEntry = z.infer<typeof ScopeEntrySchema>;

export const MetricTripleSchema = z.object({
  base: z.number().nullable(),
  step: z.number().nullable(),
  gold: z.number().nullable(),
});
export type MetricTriple = z.infer<typeof MetricTripleSchema>;

/**
 * CodeThread's four per-function metrics (Section 5.1; docs/reference/maintainability.md):
 * cyclomatic and cognitive complexity, Halstead volume, logical lines of code.
 */
export const SymbolMetricsSchema = z.object({
  file: z.string(),
  symbol: z.string(),
  cyclomatic: MetricTripleSchema,
  cognitive: MetricTripleSchema,
  halsteadVolume: MetricTripleSchema,
  lloc: MetricTripleSchema,
  /** step − gold (the AA−HA style delta); null when either version is missing. */
  delta: z.object({
    cyclomatic: z.number().nullable(),
    cognitive: z.number().nullable(),
    halsteadVolume: z.number().nullable(),
    lloc: z.number().nullable(),
  }),
});
export type SymbolMetrics = z.infer<typeof SymbolMetricsSchema>;

export const DriftConfidenceSchema = z.enum(['high', 'low']);
export type DriftConfidence = z.infer<typeof DriftConfidenceSchema>;

export const DriftSuggestionSchema = z.object({
  file: z.string(),
  symbol: z.string(),
  label: DriftLabelSchema,
  group: DriftGroupSchema,
  /** INPUT GATING, SILENT FALLBACK or ERROR HANDLING: input/error contract drift. */
  iec: z.boolean(),
  /** The first suggestion of a symbol is its suggested primary label. */
  primary: z.boolean(),
  /** One line for a person. */
  reason: z.string(),
  evidence: z.array(EvidenceLineSchema),
  /** The symbol in the step's version of the file (where a label would be attached). */
  range: z.object({ startLine: z.number().int().positive(), endLine: z.number().int().positive() }),
  source: z.literal('suggested'),
  /**
   * How often a suggestion of this kind was right on the labelled set (docs/reference/drift.md):
   * low-confidence ones are drawn quietly. Absent in analyses saved before it existed: high.
   */
  confidence: DriftConfidenceSchema.optional(),
});
export type DriftSuggestion = z.infer<typeof DriftSuggestionSchema>;

export const FileCoverageSchema = z.object({
  file: z.string(),
  language: z.string().nullable(),
  /** 'symbol' when a grammar mapped hunks to symbols; 'file' otherwise (reason in note). */
  level: z.enum(['symbol', 'file']),
  note: z.string().optional(),
});
export type FileCoverage = z.infer<typeof FileCoverageSchema>;

export const ScopeReportSchema = z.object({
  step: z.array(z.string()),
  gold: z.array(z.string()),
  overshoot: z.array(ScopeEntrySchema),
  undershoot: z.array(ScopeEntrySchema),
  /** |A∩B| / |A∪B|; null when both sets are empty. Symbol Jaccard counts functions/classes, not `<module>`. */
  jaccard: z.number().min(0).max(1).nullable(),
});
export type ScopeReport = z.infer<typeof ScopeReportSchema>;

export const StepAnalysisSchema = z.object({
  files: ScopeReportSchema,
  symbols: ScopeReportSchema,
  metrics: z.array(SymbolMetricsSchema),
  drift: z.array(DriftSuggestionSchema),
  coverage: z.array(FileCoverageSchema),
});
export type StepAnalysis = z.infer<typeof StepAnalysisSchema>;

/** What an editor draws: per file, line ranges of the step's version with a kind and hover text. */
export const DecorationKindSchema = z.enum(['overshoot', 'undershoot', 'drift']);
export type DecorationKind = z.infer<typeof DecorationKindSchema>;

export const DecorationSchema = z.object({
  kind: DecorationKindSchema,
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  /** Markdown-free plain text, one or more lines. */
  hover: z.string(),
  symbol: z.string().optional(),
  label: DriftLabelSchema.optional(),
  iec: z.boolean().optional(),
  /** Drift only: a low-confidence suggestion, drawn quietly. */
  confidence: DriftConfidenceSchema.optional(),
});
export type Decoration = z.infer<typeof DecorationSchema>;

export const FileDecorationsSchema = z.object({
  file: z.string(),
  decorations: z.array(DecorationSchema),
});
export type FileDecorations = z.infer<typeof FileDecorationsSchema>;
