import { linearScale, type LinearScale } from './scale';
import { coord, escapeXml, formatTick } from './svgText';
import { CHART_CSS, seriesClass } from './theme';

export interface ChartBase {
  readonly title: string;
  /** Read by screen readers (the chart's <desc>); say what the chart shows in one sentence. */
  readonly description?: string;
  readonly yLabel: string;
  readonly xLabel?: string;
  readonly width?: number;
  readonly height?: number;
  /** Y values are rates in [0, 1], shown as percentages. */
  readonly percent?: boolean;
  /** Embed the stylesheet (standalone .svg files); webviews and HTML pages load CHART_CSS once. */
  readonly standalone?: boolean;
}

export interface Plot {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  /** Pixel y of a value, clamped to the plot so an interval reaching past the domain stays inside. */
  readonly y: LinearScale;
}

const MARGIN = { left: 56, right: 16, top: 34, bottom: 46 };
const LEGEND_ROW = 18;

/** Width, height and plot area of a chart with `legendRows` rows of legend under the title. */
export function layout(
  base: ChartBase,
  yDomain: readonly [number, number],
  legendRows: number,
): Plot & { width: number; height: number } {
  const width = base.width ?? 640;
  const height = (base.height ?? 340) + legendRows * LEGEND_ROW;
  const top = MARGIN.top + legendRows * LEGEND_ROW;
  const bottom = height - MARGIN.bottom;
  return {
    width,
    height,
    left: MARGIN.left,
    right: width - MARGIN.right,
    top,
    bottom,
    y: clamped(linearScale(yDomain, [bottom, top]), top, bottom),
  };
}

function clamped(scale: LinearScale, top: number, bottom: number): LinearScale {
  const clamp = ((v: number) => Math.min(bottom, Math.max(top, scale(v)))) as LinearScale;
  return Object.assign(clamp, { domain: scale.domain, ticks: scale.ticks });
}

/** The <svg> element around a chart's marks: title, description, grid, y axis and labels. */
export function frame(
  base: ChartBase,
  plot: Plot & { width: number; height: number },
  xAxis: string,
  legend: readonly string[],
  marks: string,
): string {
  const { width, height, left, right, top, bottom, y } = plot;
  const percent = base.percent ?? false;
  const grid = y.ticks
    .map((t) => `<line x1="${left}" x2="${right}" y1="${coord(y(t))}" y2="${coord(y(t))}"/>`)
    .join('');
  const yTicks = y.ticks
    .map(
      (t) =>
        `<text x="${left - 6}" y="${coord(y(t))}" text-anchor="end" dominant-baseline="middle">${escapeXml(formatTick(t, percent))}</text>`,
    )
    .join('');
  const legendItems = legend
    .map((name, i) => {
      const ly = 34 + i * LEGEND_ROW;
      return `<g class="cl-legend-item"><rect class="${seriesClass(i)}" x="${left}" y="${ly - 9}" width="12" height="12"/><text x="${left + 18}" y="${ly}" dominant-baseline="middle">${escapeXml(name)}</text></g>`;
    })
    .join('');
  const style = base.standalone ? `<style>${CHART_CSS}</style>` : '';
  const xLabel = base.xLabel
    ? `<text x="${coord((left + right) / 2)}" y="${height - 8}" text-anchor="middle">${escapeXml(base.xLabel)}</text>`
    : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="cl-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="t d">`,
    style,
    `<title id="t">${escapeXml(base.title)}</title>`,
    `<desc id="d">${escapeXml(base.description ?? base.title)}</desc>`,
    `<text class="cl-title" x="${left}" y="18">${escapeXml(base.title)}</text>`,
    legendItems,
    `<g class="cl-grid">${grid}</g>`,
    `<g class="cl-axis"><line x1="${left}" x2="${left}" y1="${top}" y2="${bottom}"/><line x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>${yTicks}${xAxis}</g>`,
    `<text transform="translate(14 ${coord((top + bottom) / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(base.yLabel)}</text>`,
    xLabel,
    marks,
    '</svg>',
  ].join('');
}

/** A vertical interval (confidence interval, IQR) with caps. */
export function whisker(x: number, yLow: number, yHigh: number, cls: string, cap = 4): string {
  return (
    `<g class="cl-whisker ${cls}"><line x1="${coord(x)}" x2="${coord(x)}" y1="${coord(yLow)}" y2="${coord(yHigh)}"/>` +
    `<line x1="${coord(x - cap)}" x2="${coord(x + cap)}" y1="${coord(yLow)}" y2="${coord(yLow)}"/>` +
    `<line x1="${coord(x - cap)}" x2="${coord(x + cap)}" y1="${coord(yHigh)}" y2="${coord(yHigh)}"/></g>`
  );
}

/** `data-key` ties a mark to the records behind it (the Results view opens them on click). */
export function keyAttr(key: string | undefined): string {
  return key === undefined ? '' : ` data-key="${escapeXml(key)}" tabindex="0"`;
}
