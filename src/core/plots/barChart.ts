import { frame, keyAttr, layout, whisker, type ChartBase } from './frame';
import { extent } from './scale';
import { coord, escapeXml, formatTick } from './svgText';
import { seriesClass } from './theme';

export interface Bar {
  readonly value: number;
  readonly low?: number;
  readonly high?: number;
  /** Shown on hover; default "group · series: value". */
  readonly label?: string;
  readonly key?: string;
}

export interface BarGroup {
  readonly label: string;
  /** One bar per series name, in `series` order; a missing bar leaves its slot empty. */
  readonly bars: Readonly<Record<string, Bar | undefined>>;
}

export interface BarChart extends ChartBase {
  readonly series: readonly string[];
  readonly groups: readonly BarGroup[];
}

/** Grouped bars with optional interval whiskers (resolve rate per condition, per position). */
export function barChart(chart: BarChart): string {
  const bars = chart.groups.flatMap((g) => Object.values(g.bars).filter((b): b is Bar => b !== undefined));
  const yDomain = chart.percent ? ([0, 1] as const) : extent([0, ...bars.flatMap((b) => [b.value, b.high ?? b.value])]);
  const plot = layout(chart, yDomain, chart.series.length > 1 ? chart.series.length : 0);
  const { y } = plot;
  const groupWidth = (plot.right - plot.left) / Math.max(1, chart.groups.length);
  const barWidth = Math.min(48, (groupWidth * 0.8) / Math.max(1, chart.series.length));
  const xAxis = chart.groups
    .map(
      (g, gi) =>
        `<text x="${coord(plot.left + groupWidth * (gi + 0.5))}" y="${plot.bottom + 16}" text-anchor="middle">${escapeXml(g.label)}</text>`,
    )
    .join('');
  const marks = chart.groups
    .map((g, gi) => {
      const start = plot.left + groupWidth * (gi + 0.5) - (barWidth * chart.series.length) / 2;
      return chart.series
        .map((name, si) => {
          const bar = g.bars[name];
          if (!bar || !Number.isFinite(bar.value)) return '';
          const cls = seriesClass(si);
          const x = start + barWidth * si;
          const top = y(Math.max(bar.value, yDomain[0]));
          const label = bar.label ?? `${g.label} · ${name}: ${formatTick(bar.value, chart.percent ?? false)}`;
          const rect = `<rect class="cl-bar ${cls}" x="${coord(x + 1)}" y="${coord(top)}" width="${coord(barWidth - 2)}" height="${coord(Math.max(0, plot.bottom - top))}"${keyAttr(bar.key)}><title>${escapeXml(label)}</title></rect>`;
          const interval =
            bar.low !== undefined && bar.high !== undefined && Number.isFinite(bar.low)
              ? whisker(x + barWidth / 2, y(bar.low), y(bar.high), 'cl-interval')
              : '';
          return rect + interval;
        })
        .join('');
    })
    .join('');
  return frame(chart, plot, xAxis, chart.series.length > 1 ? chart.series : [], marks);
}
