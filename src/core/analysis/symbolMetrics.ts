import type { SymbolMetrics } from '../../protocol/analysis';
import type { FunctionMaintainability } from './maintainability';

type Metric = 'cyclomatic' | 'cognitive' | 'halsteadVolume' | 'lloc';

/** The four metrics of one symbol at base, after the step and after gold, and step − gold. */
export function symbolMetrics(
  file: string,
  symbol: string,
  base: FunctionMaintainability | undefined,
  step: FunctionMaintainability | undefined,
  gold: FunctionMaintainability | undefined,
): SymbolMetrics {
  const triple = (m: Metric) => ({ base: base?.[m] ?? null, step: step?.[m] ?? null, gold: gold?.[m] ?? null });
  const delta = (m: Metric) => (step && gold ? step[m] - gold[m] : null);
  return {
    file,
    symbol,
    cyclomatic: triple('cyclomatic'),
    cognitive: triple('cognitive'),
    halsteadVolume: triple('halsteadVolume'),
    lloc: triple('lloc'),
    delta: {
      cyclomatic: delta('cyclomatic'),
      cognitive: delta('cognitive'),
      halsteadVolume: delta('halsteadVolume'),
      lloc: delta('lloc'),
    },
  };
}
