// Themable SVG charts for study results (CLI --html reports and VS Code result views). Pure
// string building: the same markup renders in a webview and in a browser; colours come from
// CHART_CSS (VS Code theme variables with fallbacks), never from inline styles.
export { lineChart, type LineChart, type LinePoint, type LineSeries } from './lineChart';
export { barChart, type Bar, type BarChart, type BarGroup } from './barChart';
export { boxChart, type Box, type BoxChart } from './boxChart';
export { CHART_CSS, seriesClass } from './theme';
export { escapeXml } from './svgText';
export { niceTicks } from './scale';
