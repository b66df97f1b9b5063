import { frame, keyAttr, layout, whisker, type ChartBase } from './frame';
import { extent, linearScale } from './scale';
import { coord, escapeXml, formatTick } from './svgText';
import { seriesClass } from './theme';

export interface LinePoint {
  readonly x: number;
  readonly y: number;
  /** An interval around y (e.g. a Wilson 95% interval), drawn as a whisker. */
  readonly low?: number;
  readonly high?: number;
  /** Shown on hover (the point's <title>); default "x, y". */
  readonly label?: string;
  readonly key?: string;
}

export interface LineSeries {
  readonly name: string;
  readonly points: readonly LinePoint[];
  readonly dashed?: boolean;
}

export interface LineChart extends ChartBase {
  readonly series: readonly LineSeries[];
  /** Default: from the data (0..1 when percent). */
  readonly yDomain?: readonly [number, number];
  /** Only integer x ticks (chain positions, iterations). */
  readonly integerX?: boolean;
  /** Horizontal reference lines, e.g. p0 and p* of a SWE-CI task. */
  readonly references?: readonly { readonly y: number; readonly label: string }[];
}

/** Lines with points (and optional interval whiskers) over a numeric x axis, one class per series. */
export function lineChart(chart: LineChart): string {
  const points = chart.series.flatMap((s) => s.points);
  const yValues = [
    ...points.flatMap((p) => [p.y, p.low ?? p.y, p.high ?? p.y]),
    ...(chart.references ?? []).map((r) => r.y),
  ];
  const yDomain = chart.yDomain ?? (chart.percent ? ([0, 1] as const) : extent(yValues));
  const plot = layout(chart, yDomain, chart.series.length);
  const [x0, x1] = extent(points.map((p) => p.x));
  const pad = (x1 - x0) * 0.04 || 0.5;
  const xTicks = chart.integerX ? integerTicks(x0, x1) : undefined;
  const xAt = linearScale([x0 - pad, x1 + pad], [plot.left, plot.right], xTicks);
  const { y } = plot;
  const xAxis = xAt.ticks
    .map(
      (t) =>
        `<text x="${coord(xAt(t))}" y="${plot.bottom + 16}" text-anchor="middle">${escapeXml(formatTick(t, false))}</text>`,
    )
    .join('');
  const refs = (chart.references ?? [])
    .map(
      (r) =>
        `<g class="cl-reference"><line x1="${plot.left}" x2="${plot.right}" y1="${coord(y(r.y))}" y2="${coord(y(r.y))}"/>` +
        `<text x="${plot.right - 4}" y="${coord(y(r.y) - 4)}" text-anchor="end">${escapeXml(r.label)}</text></g>`,
    )
    .join('');
  const dodge = dodgeOf(chart.series, xAt, plot.right - plot.left);
  const marks = chart.series
    .map((s, i) => {
      const cls = seriesClass(i);
      // Series with the same values (Oracle and Seq of a source that never lost a step) would
      // hide each other: each is drawn a few pixels aside of the value's x, like a dodged plot.
      const shift = (i - (chart.series.length - 1) / 2) * dodge;
      const x = (v: number): number => xAt(v) + shift;
      const sorted = [...s.points].sort((a, b) => a.x - b.x);
      const path = sorted.map((p, k) => `${k ? 'L' : 'M'}${coord(x(p.x))} ${coord(y(p.y))}`).join('');
      const whiskers = sorted
        .filter((p) => p.low !== undefined && p.high !== undefined)
        .map((p) => whisker(x(p.x), y(p.low as number), y(p.high as number), cls))
        .join('');
      const dots = sorted
        .map((p) => {
          const label = p.label ?? `${s.name}: ${formatTick(p.x, false)}, ${formatTick(p.y, chart.percent ?? false)}`;
          return `<circle class="${cls}" cx="${coord(x(p.x))}" cy="${coord(y(p.y))}" r="3.5"${keyAttr(p.key)}><title>${escapeXml(label)}</title></circle>`;
        })
        .join('');
      const line = sorted.length > 1 ? `<path class="cl-line ${cls}${s.dashed ? ' cl-dashed' : ''}" d="${path}"/>` : '';
      return `<g class="cl-series" data-series="${escapeXml(s.name)}">${line}${whiskers}${dots}</g>`;
    })
    .join('');
  return frame(
    chart,
    plot,
    xAxis,
    chart.series.map((s) => s.name),
    refs + marks,
  );
}

/**
 * Pixels between neighbouring series: 0 unless two series share a point (same x and y), then
 * small enough for all of them to stay within a fifth of the gap between two x values.
 */
function dodgeOf(series: readonly LineSeries[], x: (v: number) => number, plotWidth: number): number {
  const seen = new Set<string>();
  let shared = false;
  for (const s of series) {
    const own = new Set(s.points.map((p) => `${p.x}:${p.y}`));
    for (const k of own) if (seen.has(k)) shared = true;
    for (const k of own) seen.add(k);
  }
  if (!shared) return 0;
  const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const gap = xs.length > 1 ? Math.min(...xs.slice(1).map((v, i) => x(v) - x(xs[i]))) : plotWidth;
  return Math.min(6, gap / 5 / Math.max(1, series.length - 1));
}

function integerTicks(min: number, max: number): number[] {
  const span = Math.max(1, Math.round(max - min));
  const step = Math.max(1, Math.ceil(span / 12));
  const ticks: number[] = [];
  for (let v = Math.ceil(min); v <= max; v += step) ticks.push(v);
  return ticks;
}
