import { frame, keyAttr, layout, type ChartBase } from './frame';
import { extent, niceDomain } from './scale';
import { coord, escapeXml, formatTick } from './svgText';
import { seriesClass } from './theme';

export interface Box {
  readonly label: string;
  readonly min: number;
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
  readonly max: number;
  readonly n: number;
  readonly key?: string;
}

export interface BoxChart extends ChartBase {
  readonly boxes: readonly Box[];
}

/** One box per group: the IQR as a box, the median as a bar, min..max as whiskers (time on task). */
export function boxChart(chart: BoxChart): string {
  const shown = chart.boxes.filter((b) => b.n > 0);
  const plot = layout(chart, niceDomain(extent([0, ...shown.flatMap((b) => [b.min, b.max])])), 0);
  const { y } = plot;
  const slot = (plot.right - plot.left) / Math.max(1, chart.boxes.length);
  const width = Math.min(56, slot * 0.5);
  const xAxis = chart.boxes
    .map(
      (b, i) =>
        `<text x="${coord(plot.left + slot * (i + 0.5))}" y="${plot.bottom + 16}" text-anchor="middle">${escapeXml(`${b.label} (n=${b.n})`)}</text>`,
    )
    .join('');
  const marks = chart.boxes
    .map((b, i) => {
      if (b.n === 0) return '';
      const cls = seriesClass(i);
      const cx = plot.left + slot * (i + 0.5);
      const x0 = cx - width / 2;
      const fmt = (v: number) => formatTick(v, false);
      const title = `${b.label}: median ${fmt(b.median)}, IQR ${fmt(b.q1)}–${fmt(b.q3)}, range ${fmt(b.min)}–${fmt(b.max)}, n=${b.n}`;
      return (
        `<g class="cl-boxplot ${cls}"${keyAttr(b.key)}><title>${escapeXml(title)}</title>` +
        `<line class="cl-whisker ${cls}" x1="${coord(cx)}" x2="${coord(cx)}" y1="${coord(y(b.min))}" y2="${coord(y(b.q1))}"/>` +
        `<line class="cl-whisker ${cls}" x1="${coord(cx)}" x2="${coord(cx)}" y1="${coord(y(b.q3))}" y2="${coord(y(b.max))}"/>` +
        `<rect class="cl-box ${cls}" x="${coord(x0)}" y="${coord(y(b.q3))}" width="${coord(width)}" height="${coord(Math.max(1, y(b.q1) - y(b.q3)))}"/>` +
        `<line class="cl-median ${cls}" x1="${coord(x0)}" x2="${coord(x0 + width)}" y1="${coord(y(b.median))}" y2="${coord(y(b.median))}"/></g>`
      );
    })
    .join('');
  return frame(chart, plot, xAxis, [], marks);
}
