// Study Results: the report of `chainlens study report` in a webview: the same tables and the
// two charts as themable SVG (colours from --vscode-charts-*), no script and nothing remote.
import * as vscode from 'vscode';
import { collectRows } from '../../app/study/export';
import { loadStudy } from '../../app/study/loadStudy';
import { CHART_CSS, escapeXml } from '../../core/plots';
import { studyReport } from '../../core/study/report';
import { reportCharts, reportTablesHtml } from '../../core/study/reportView';
import { webviewNonce } from '../webviewHtml';

const TABLE_CSS = `
body { padding: 0 1rem; }
.cl-table { border-collapse: collapse; margin: 1rem 0; }
.cl-table caption { text-align: left; font-weight: 600; padding-bottom: 0.3rem; }
.cl-table td, .cl-table th { border: 1px solid var(--vscode-panel-border, #8884); padding: 0.25rem 0.6rem; text-align: left; }
.cl-charts { display: flex; flex-wrap: wrap; gap: 1rem; }`;

export async function showStudyResults(studyFile: string): Promise<vscode.WebviewPanel> {
  const study = loadStudy(studyFile);
  const { rows } = await collectRows(study);
  const report = studyReport(study.study.name, rows);
  const panel = vscode.window.createWebviewPanel(
    'chainlens.studyResults',
    `Study Results: ${study.study.name}`,
    vscode.ViewColumn.Active,
    {
      enableScripts: false,
    },
  );
  const nonce = webviewNonce();
  const { resolve, time } = reportCharts(report);
  panel.webview.html = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'">
<style nonce="${nonce}">${CHART_CSS}${TABLE_CSS}</style><title>${escapeXml(study.study.name)}</title></head>
<body><h2>${escapeXml(`Study ${study.study.name}`)}</h2><p>${report.participants} participant(s), ${report.rows} row(s). Outcome: the last step of each task, resolved or not.</p>
${reportTablesHtml(report)}<div class="cl-charts">${resolve}${time}</div></body></html>`;
  return panel;
}
