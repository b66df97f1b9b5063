import { barChart, boxChart, CHART_CSS, escapeXml } from '../plots';
import type { StudyReport } from './report';

/** A number as a person reads it in a table: NaN (no data) as "n/a". */
function num(x: number, digits = 1): string {
  return Number.isFinite(x) ? x.toFixed(digits) : 'n/a';
}

function pct(x: number): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : 'n/a';
}

/** p-values the way papers print them: 3 significant digits, "< 0.001" below that. */
export function formatP(p: number): string {
  return p < 0.001 ? '< 0.001' : p.toPrecision(3);
}

/** The report as text tables (the CLI's default output). */
export function reportText(report: StudyReport): string[] {
  const lines = [`study ${report.study}: ${report.participants} participant(s), ${report.rows} row(s)`, ''];
  if (report.rows === 0) return [...lines, EMPTY_STUDY];
  lines.push('condition  resolved  n    rate    95% CI (Wilson)     active s median [IQR]     wall s median [IQR]');
  for (const c of report.conditions) {
    const o = c.outcome;
    lines.push(
      [
        c.condition.padEnd(10),
        String(o.successes).padEnd(9),
        String(o.total).padEnd(4),
        pct(o.rate).padEnd(7),
        `${pct(o.low)}–${pct(o.high)}`.padEnd(19),
        `${num(c.activeSeconds.median)} [${num(c.activeSeconds.q1)}–${num(c.activeSeconds.q3)}]`.padEnd(25),
        `${num(c.wallSeconds.median)} [${num(c.wallSeconds.q1)}–${num(c.wallSeconds.q3)}]`,
      ].join(' '),
    );
  }
  const pending = pendingNote(report);
  if (pending) lines.push('', pending);
  if (report.comparisons.length) {
    lines.push('', 'paired (same task)  pairs  both  only A  only B  neither  McNemar exact p');
    for (const c of report.comparisons)
      lines.push(
        [
          `${c.a} vs ${c.b}`.padEnd(19),
          String(c.pairs).padEnd(6),
          String(c.table.both).padEnd(5),
          String(c.table.onlyA).padEnd(7),
          String(c.table.onlyB).padEnd(7),
          String(c.table.neither).padEnd(8),
          c.pairs ? formatP(c.pValue) : 'n/a (no task has both)',
        ].join(' '),
      );
  }
  return lines;
}

/** The two charts: resolve rate per condition with Wilson intervals, active minutes per condition. */
export function reportCharts(report: StudyReport): { resolve: string; time: string } {
  const resolve = barChart({
    title: 'Resolved (last step) per condition',
    description: 'Share of tasks whose last step is resolved, per condition, with Wilson 95% intervals.',
    yLabel: 'resolved',
    percent: true,
    series: ['resolved'],
    groups: report.conditions.map((c) => ({
      label: `${c.condition} (n=${c.outcome.total})`,
      bars: { resolved: { value: c.outcome.rate, low: c.outcome.low, high: c.outcome.high, key: c.condition } },
    })),
  });
  const minutes = (s: number) => s / 60;
  const time = boxChart({
    title: 'Active time per person-solved step',
    description: 'Active minutes per step a person solved, per condition: median, quartiles and range.',
    yLabel: 'active minutes',
    boxes: report.conditions.map((c) => ({
      label: c.condition,
      n: c.activeSeconds.n,
      min: minutes(c.activeSeconds.min),
      q1: minutes(c.activeSeconds.q1),
      median: minutes(c.activeSeconds.median),
      q3: minutes(c.activeSeconds.q3),
      max: minutes(c.activeSeconds.max),
      key: c.condition,
    })),
  });
  return { resolve, time };
}

/** Which sessions the rates leave out because their last step is not graded yet, or ''. */
export function pendingNote(report: StudyReport): string {
  const open = report.conditions.filter((c) => c.pending > 0);
  if (open.length === 0) return '';
  const total = open.reduce((n, c) => n + c.pending, 0);
  return `not counted yet: ${total} task session(s) whose last step is not submitted and graded (${open.map((c) => `${c.condition}: ${c.pending}`).join(', ')})`;
}

/** The tables as HTML (shared by the CLI's --html page and the VS Code Study Results view). */
export function reportTablesHtml(report: StudyReport): string {
  const e = escapeXml;
  const conditionRows = report.conditions
    .map(
      (c) =>
        `<tr><td>${e(c.condition)}</td><td>${c.outcome.successes}/${c.outcome.total}</td><td>${pct(c.outcome.rate)}</td><td>${pct(c.outcome.low)}–${pct(c.outcome.high)}</td><td>${num(c.activeSeconds.median)} [${num(c.activeSeconds.q1)}–${num(c.activeSeconds.q3)}]</td><td>${num(c.wallSeconds.median)} [${num(c.wallSeconds.q1)}–${num(c.wallSeconds.q3)}]</td></tr>`,
    )
    .join('');
  const pairRows = report.comparisons
    .map(
      (c) =>
        `<tr><td>${e(c.a)} vs ${e(c.b)}</td><td>${c.pairs}</td><td>${c.table.both}</td><td>${c.table.onlyA}</td><td>${c.table.onlyB}</td><td>${c.table.neither}</td><td>${c.pairs ? formatP(c.pValue) : 'n/a'}</td></tr>`,
    )
    .join('');
  return (
    `<table class="cl-table"><caption>Resolve rate (last step) and time on task per condition</caption><thead><tr><th>condition</th><th>resolved</th><th>rate</th><th>95% CI (Wilson)</th><th>active s, median [IQR]</th><th>wall s, median [IQR]</th></tr></thead><tbody>${conditionRows}</tbody></table>` +
    (pendingNote(report) ? `<p class="cl-note">${e(pendingNote(report))}</p>` : '') +
    (pairRows
      ? `<table class="cl-table"><caption>Paired comparisons on the same tasks (exact McNemar)</caption><thead><tr><th>conditions</th><th>pairs</th><th>both</th><th>only A</th><th>only B</th><th>neither</th><th>p</th></tr></thead><tbody>${pairRows}</tbody></table>`
      : '')
  );
}

/** What to do when a study has no row yet: the empty report says it instead of empty charts. */
export const EMPTY_STUDY =
  'No results yet: no session of this study has submitted a task. Start one with ChainLens: Start Study Session… (or `chainlens study start <study.json> --participant <id>`), solve and submit its steps, then open the results again.';

/** Shown instead of the time chart while no step a person solved is recorded (AA rows only, say). */
export const NO_PERSON_TIME =
  'No step solved by a person is recorded yet: active time per step appears once one is submitted.';

/**
 * The report's body: the tables and the charts, or what to do while there is nothing to show
 * (an empty box chart would draw an axis from -1 to 1 around no data).
 */
export function studyReportBody(report: StudyReport, heading: 'h1' | 'h2'): string {
  const title = `<${heading}>${escapeXml(`Study ${report.study}`)}</${heading}>`;
  if (report.rows === 0) return `${title}<p class="cl-empty">${escapeXml(EMPTY_STUDY)}</p>`;
  const { resolve, time } = reportCharts(report);
  const timed = report.conditions.some((c) => c.activeSeconds.n > 0);
  return `${title}<p>${report.participants} participant(s), ${report.rows} row(s). Outcome: the last step of each task, resolved or not.</p>${reportTablesHtml(report)}<div class="cl-charts">${resolve}${timed ? time : `<p class="cl-empty">${escapeXml(NO_PERSON_TIME)}</p>`}</div>`;
}

/** A standalone HTML page (`study report --html`): no script, no CDN, the chart stylesheet inline. */
export function reportHtmlPage(report: StudyReport): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeXml(`Study ${report.study}`)}</title><style>${CHART_CSS}
body { font-family: system-ui, sans-serif; margin: 2rem; }
.cl-table { border-collapse: collapse; margin: 1rem 0; }
.cl-table td, .cl-table th { border: 1px solid #8884; padding: 0.25rem 0.6rem; text-align: left; }
</style></head><body>${studyReportBody(report, 'h1')}</body></html>
`;
}
