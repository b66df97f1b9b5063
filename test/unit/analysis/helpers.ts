// Shared by the analysis tests: real tree-sitter grammars, patches made by the `diff` package.
import { createTwoFilesPatch } from 'diff';
import { analyzeStep } from '../../../src/core/analysis/analyzeStep';
import { createSymbolIndex } from '../../../src/core/analysis/outline';
import type { SymbolIndex } from '../../../src/core/analysis/symbols';
import { parsePatch } from '../../../src/core/patch/parse';
import type { DriftSuggestion, StepAnalysis } from '../../../src/protocol/analysis';
import { TreeSitterParser } from '../../../src/infra/treesitter/parser';

export const symbols: SymbolIndex = createSymbolIndex(new TreeSitterParser());

export function diffOf(path: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, '', '', { context: 3 });
}

/** One file: the base text, what the step made of it, what gold made of it. */
export function analyzeOne(path: string, base: string, step: string, gold: string): Promise<StepAnalysis> {
  return analyzeStep({
    stepPatch: parsePatch(diffOf(path, base, step), 'step'),
    goldPatch: parsePatch(diffOf(path, base, gold), 'gold'),
    readFile: async (p) => (p === path ? base : undefined),
    symbols,
  });
}

export const labelsOf = (a: StepAnalysis, symbol?: string): string[] =>
  a.drift.filter((d) => symbol === undefined || d.symbol === symbol).map((d) => d.label);

export const suggestion = (a: StepAnalysis, label: string): DriftSuggestion | undefined =>
  a.drift.find((d) => d.label === label);
