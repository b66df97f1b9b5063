/**
 * Charts carry classes, not colours: the stylesheet maps them to VS Code's theme colours
 * (--vscode-charts-*, --vscode-foreground, ...) with fallbacks for a report opened in a browser.
 * Webviews load CHART_CSS from their stylesheet (no inline styles: their CSP forbids them);
 * standalone SVG and HTML files embed it.
 */
export const SERIES_CLASSES = 6;

export const CHART_CSS = `
.cl-chart { max-width: 100%; height: auto; font: 12px var(--vscode-font-family, system-ui, sans-serif); color: var(--vscode-foreground, #1f2328); }
.cl-chart text { fill: currentColor; }
.cl-chart .cl-title { font-weight: 600; font-size: 13px; }
.cl-chart .cl-axis line, .cl-chart .cl-axis path { stroke: currentColor; stroke-opacity: 0.6; }
.cl-chart .cl-grid line { stroke: currentColor; stroke-opacity: 0.12; }
.cl-chart .cl-reference line { stroke: currentColor; stroke-opacity: 0.55; stroke-dasharray: 2 3; }
.cl-chart .cl-line { fill: none; stroke-width: 2; }
.cl-chart .cl-dashed { stroke-dasharray: 6 4; }
.cl-chart .cl-whisker { stroke-width: 1.25; }
.cl-chart .cl-interval { stroke: currentColor; stroke-opacity: 0.8; }
.cl-chart .cl-box { fill-opacity: 0.25; stroke-width: 1.5; }
.cl-chart .cl-median { stroke-width: 2.5; }
.cl-chart [data-key] { cursor: pointer; }
.cl-chart .cl-s0 { stroke: var(--vscode-charts-blue, #1a73e8); fill: var(--vscode-charts-blue, #1a73e8); }
.cl-chart .cl-s1 { stroke: var(--vscode-charts-orange, #e8710a); fill: var(--vscode-charts-orange, #e8710a); }
.cl-chart .cl-s2 { stroke: var(--vscode-charts-green, #188038); fill: var(--vscode-charts-green, #188038); }
.cl-chart .cl-s3 { stroke: var(--vscode-charts-purple, #9334e6); fill: var(--vscode-charts-purple, #9334e6); }
.cl-chart .cl-s4 { stroke: var(--vscode-charts-red, #d93025); fill: var(--vscode-charts-red, #d93025); }
.cl-chart .cl-s5 { stroke: var(--vscode-charts-yellow, #b06000); fill: var(--vscode-charts-yellow, #b06000); }
.cl-chart .cl-line.cl-s0, .cl-chart .cl-line.cl-s1, .cl-chart .cl-line.cl-s2, .cl-chart .cl-line.cl-s3,
.cl-chart .cl-line.cl-s4, .cl-chart .cl-line.cl-s5 { fill: none; }
`.trim();

export function seriesClass(index: number): string {
  return `cl-s${index % SERIES_CLASSES}`;
}
