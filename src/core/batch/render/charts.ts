import { barChart, lineChart } from '../../plots';
import type { BatchReport } from '../aggregate';

/** The key a chart mark or table cell carries; the Results view opens the steps behind it. */
export const positionKey = (source: string, mode: string, position: number) => `position:${source}:${mode}:${position}`;
export const groupKey = (source: string, mode: string, what: 'steps' | 'full') => `${what}:${source}:${mode}`;
export const chainErrorKey = (source: string, chainId: string, position: number) =>
  `chain-error:${source}:${chainId}:${position}`;

/** Every drill-down key of the report -> the step ids (records) behind it. */
export function drillKeys(report: BatchReport): Record<string, readonly string[]> {
  const keys: Record<string, readonly string[]> = {};
  for (const g of report.groups) {
    keys[groupKey(g.source, g.mode, 'steps')] = g.steps.steps;
    keys[groupKey(g.source, g.mode, 'full')] = g.fullChain.steps;
    for (const p of g.byPosition) keys[positionKey(g.source, g.mode, p.position)] = p.steps;
  }
  for (const e of report.chainErrors) keys[chainErrorKey(e.source, e.chainId, e.position)] = e.steps;
  return keys;
}

/** Resolve rate by chain position, one line per source and mode, Wilson 95% whiskers. */
export function positionChart(report: BatchReport, standalone = false): string {
  return lineChart({
    title: 'Resolve rate by chain position',
    description:
      'Share of steps resolved at each chain position, per prediction source and mode, with Wilson 95% intervals.',
    yLabel: 'resolved',
    xLabel: 'chain position',
    percent: true,
    integerX: true,
    standalone,
    series: report.groups.map((g) => ({
      name: `${g.source} · ${g.mode}`,
      dashed: g.mode === 'oracle',
      points: g.byPosition
        .filter((p) => p.total > 0)
        .map((p) => ({
          x: p.position,
          y: p.rate,
          low: p.low,
          high: p.high,
          label: `${g.source} ${g.mode}, position ${p.position}: ${p.successes}/${p.total}`,
          key: positionKey(g.source, g.mode, p.position),
        })),
    })),
  });
}

/** Oracle vs Seq per position and source: the bars whose gap is the Oracle-to-Seq drop. */
export function oracleSeqChart(report: BatchReport, standalone = false): string {
  const series = [...new Set(report.groups.map((g) => `${g.source} · ${g.mode}`))];
  const positions = [...new Set(report.groups.flatMap((g) => g.byPosition.map((p) => p.position)))].sort(
    (a, b) => a - b,
  );
  return barChart({
    title: 'Oracle vs Seq by chain position',
    description: 'Resolve rate per position for each source under Oracle and Seq, with Wilson 95% intervals.',
    yLabel: 'resolved',
    percent: true,
    standalone,
    series,
    groups: positions.map((position) => ({
      label: `position ${position}`,
      bars: Object.fromEntries(
        report.groups.flatMap((g) => {
          const p = g.byPosition.find((x) => x.position === position);
          if (!p || p.total === 0) return [];
          return [
            [
              `${g.source} · ${g.mode}`,
              { value: p.rate, low: p.low, high: p.high, key: positionKey(g.source, g.mode, position) },
            ],
          ];
        }),
      ),
    })),
  });
}
