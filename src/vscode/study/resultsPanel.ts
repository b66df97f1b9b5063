// Study Results: the report of `chainlens study report` in a webview: the same tables and the
// two charts as themable SVG (colours from --vscode-charts-*), or what to do while the study has
// no results. Hosted as every ChainLens webview is (webviewHost.ts, the `report` view of
// webview-ui), which sends nothing back here.
import * as vscode from 'vscode';
import { collectRows } from '../../app/study/export';
import { loadStudy } from '../../app/study/loadStudy';
import { CHART_CSS } from '../../core/plots';
import { studyReport } from '../../core/study/report';
import { studyReportBody } from '../../core/study/reportView';
import { FromReportViewSchema, type FromReportView, type ToReportView } from '../../protocol/reportView';
import { hostWebview } from '../webviewHost';

const TABLE_CSS = `
body { padding: 0 1rem; }
.cl-table { border-collapse: collapse; margin: 1rem 0; display: block; max-width: 100%; overflow-x: auto; }
.cl-table caption { text-align: left; font-weight: 600; padding-bottom: 0.3rem; }
.cl-table td, .cl-table th { border: 1px solid var(--vscode-panel-border, #8884); padding: 0.25rem 0.6rem; text-align: left; }
.cl-charts { display: flex; flex-wrap: wrap; gap: 1rem; }
.cl-empty { color: var(--vscode-descriptionForeground); max-width: 60em; }`;

export async function showStudyResults(
  studyFile: string,
  output: vscode.LogOutputChannel,
  extensionUri: vscode.Uri,
): Promise<vscode.WebviewPanel> {
  const study = loadStudy(studyFile);
  const { rows } = await collectRows(study);
  const report = studyReport(study.study.name, rows);
  const panel = vscode.window.createWebviewPanel(
    'chainlens.studyResults',
    `Study Results: ${study.study.name}`,
    vscode.ViewColumn.Active,
    { enableScripts: true },
  );
  const host = hostWebview<FromReportView, ToReportView>(panel, {
    extensionUri,
    view: 'report',
    title: panel.title,
    css: `${CHART_CSS}${TABLE_CSS}`,
    schema: FromReportViewSchema,
    output,
    onReady: () => host.post({ type: 'show', body: studyReportBody(report, 'h2') }),
  });
  return panel;
}
