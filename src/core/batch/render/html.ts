import { CHART_CSS, escapeXml } from '../../plots';
import type { BatchReport } from '../aggregate';
import { EMPTY_TRACE, flakyText, pct, rateText, relativeText } from './cells';
import { chainsweSections, evidenceText } from './chainsweSections';
import { chainErrorKey, groupKey, oracleSeqChart, positionChart, positionKey } from './charts';

const cell = (text: string, key?: string) =>
  `<td${key ? ` data-key="${escapeXml(key)}" tabindex="0"` : ''}>${escapeXml(text)}</td>`;
const head = (cols: readonly string[]) => `<tr>${cols.map((c) => `<th>${escapeXml(c)}</th>`).join('')}</tr>`;

/**
 * The report's tables and charts as HTML body markup. Cells and chart marks carry `data-key`
 * (charts.ts drillKeys): the VS Code Results view opens the steps behind a number on click.
 */
export function reportBody(report: BatchReport): string {
  const positions = [...new Set(report.groups.flatMap((g) => g.byPosition.map((p) => p.position)))].sort(
    (a, b) => a - b,
  );
  const parts: string[] = [];
  parts.push(
    `<p>${report.chains} chain(s); ${report.recordedSteps}/${report.expectedSteps} step evaluations recorded.</p>`,
    ...chainsweSections(report).map((s) =>
      'text' in s
        ? `<p>${escapeXml(s.text)}</p>`
        : `<h2>${escapeXml(s.title)}</h2><table>${head(s.rows[0])}${s.rows
            .slice(1)
            .map((r) => `<tr>${r.map((c) => cell(c)).join('')}</tr>`)
            .join('')}</table>`,
    ),
    '<h2>Resolve rates, every step graded</h2><table>',
    head(['source', 'mode', 'steps resolved [95% CI]', 'full chain [95% CI]', 'infra failures']),
    ...report.groups.map(
      (g) =>
        `<tr>${cell(g.source)}${cell(g.mode)}${cell(rateText(g.steps), groupKey(g.source, g.mode, 'steps'))}${cell(rateText(g.fullChain), groupKey(g.source, g.mode, 'full'))}${cell(String(g.infraFailures))}</tr>`,
    ),
    '</table>',
    '<h2>By chain position</h2><table>',
    head(['source', 'mode', ...positions.map((p) => `position ${p}`)]),
    ...report.groups.map(
      (g) =>
        `<tr>${cell(g.source)}${cell(g.mode)}${positions
          .map((p) => {
            const r = g.byPosition.find((x) => x.position === p);
            return r ? cell(rateText(r), positionKey(g.source, g.mode, p)) : cell('-');
          })
          .join('')}</tr>`,
    ),
    '</table>',
    `<figure>${positionChart(report)}</figure>`,
    `<figure>${oracleSeqChart(report)}</figure>`,
  );
  if (report.drops.length)
    parts.push(
      '<h2>Oracle-to-Seq drop</h2><table>',
      head(['source', 'position', 'pairs', 'oracle', 'seq', 'drop', 'relative']),
      ...report.drops.map(
        (d) =>
          `<tr>${cell(d.source)}${cell(String(d.position))}${cell(String(d.pairs))}${cell(pct(d.oracle.rate), positionKey(d.source, 'oracle', d.position))}${cell(pct(d.seq.rate), positionKey(d.source, 'seq', d.position))}${cell(pct(d.drop))}${cell(relativeText(d.relative))}</tr>`,
      ),
      '</table>',
    );
  parts.push(
    `<h2>Chain errors (${report.chainErrors.length})</h2><table>`,
    head(['source', 'chain', 'position', 'fingerprint', 'cause', 'evidence', 'traced to']),
    ...report.chainErrors.map(
      (e) =>
        `<tr>${cell(e.source)}${cell(e.chainId)}${cell(String(e.position), chainErrorKey(e.source, e.chainId, e.position))}${cell(e.fingerprint)}${cell(`${e.cause} (${e.causeFrom})`)}${cell([e.evidence ? evidenceText(e.evidence) : 'not gathered', flakyText(e)].filter(Boolean).join('; '))}${cell(
          e.trace.length
            ? e.trace
                .slice(0, 5)
                .map((t) => `step ${t.position} ${t.kind} ${t.file}${t.symbol ? ` ${t.symbol}` : ''}`)
                .join('; ')
            : EMPTY_TRACE,
        )}</tr>`,
    ),
    '</table>',
  );
  if (report.repeats > 1)
    parts.push(
      `<h2>Flaky steps (${report.flakySteps.length}; each graded step evaluated ${report.repeats} times)</h2><table>`,
      head(['source', 'mode', 'chain', 'position', 'resolved', 'flaky tests']),
      ...report.flakySteps.map(
        (f) =>
          `<tr>${cell(f.source)}${cell(f.mode)}${cell(f.chainId)}${cell(String(f.position))}${cell(`${f.resolved} of ${f.runs}${f.gold ? ' (gold)' : ''}`)}${cell(f.flakyTests.join(', ') || '-')}</tr>`,
      ),
      '</table>',
    );
  if (report.costs.length)
    parts.push(
      '<h2>Costs</h2><table>',
      head(['source', 'chain', 'steps', 'cost (USD)']),
      ...report.costs.map(
        (c) =>
          `<tr>${cell(c.source)}${cell(c.chainId ?? '(all)')}${cell(String(c.steps))}${cell(c.cost.toFixed(4))}</tr>`,
      ),
      '</table>',
    );
  for (const t of Object.values(report.extra))
    parts.push(
      `<h2>${escapeXml(t.title)}</h2><table>`,
      head(t.columns),
      ...t.rows.map((r) => `<tr>${r.map((c) => cell(c === null ? '-' : String(c))).join('')}</tr>`),
      '</table>',
    );
  return parts.join('\n');
}

const PAGE_CSS = `body{font:14px system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #8884;padding:.25em .6em;text-align:left}figure{margin:1em 0}`;

/** `chainlens report --html <file>`: a standalone page (charts themed by the same CSS as in VS Code). */
export function reportHtml(report: BatchReport, title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeXml(title)}</title><style>${PAGE_CSS}\n${CHART_CSS}</style></head><body><h1>${escapeXml(title)}</h1>\n${reportBody(report)}\n</body></html>\n`;
}
