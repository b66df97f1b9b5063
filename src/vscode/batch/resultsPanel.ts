// The Results view of a batch run directory: the report's tables and charts (the same markup as
// `chainlens report --html`, themed by VS Code's chart colours), where every number opens the
// steps behind it: a pick of those records, then the chosen step's log and record. Hosted as
// every ChainLens webview is (webviewHost.ts, the `report` view of webview-ui).
import { join } from 'node:path';
import * as vscode from 'vscode';
import { buildBatchReport, drillKeys, reportBody, stepId, type BatchReport } from '../../core/batch';
import { CHART_CSS } from '../../core/plots';
import type { BatchRecord } from '../../protocol/batch';
import { BatchRunDir } from '../../infra/batch/runDir';
import { FromReportViewSchema, type FromReportView, type ToReportView } from '../../protocol/reportView';
import { hostWebview } from '../webviewHost';

const PAGE_CSS = `body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:0 1em 2em}
table{border-collapse:collapse;margin:.5em 0 1.5em;display:block;max-width:100%;overflow-x:auto}td,th{border:1px solid var(--vscode-panel-border,#8884);padding:.2em .6em;text-align:left}
td[data-key]{cursor:pointer;color:var(--vscode-textLink-foreground)}td[data-key]:hover{text-decoration:underline}`;

/** One panel per run directory, with its current report (showing it again replaces the report). */
const panels = new Map<
  string,
  { panel: vscode.WebviewPanel; show(report: BatchReport, records: BatchRecord[]): void }
>();

export function showBatchResults(runDir: string, output: vscode.LogOutputChannel, extensionUri: vscode.Uri): void {
  const dir = new BatchRunDir(runDir);
  const records = dir.readRecords();
  const report = buildBatchReport(dir.readManifest(), records);
  const open = panels.get(dir.root);
  if (open) {
    open.panel.reveal();
    open.show(report, records);
    return;
  }
  const panel = vscode.window.createWebviewPanel(
    'chainlens.batchResults',
    `Batch results: ${dir.root.split(/[\\/]/).pop()}`,
    vscode.ViewColumn.Active,
    { enableScripts: true, localResourceRoots: [] },
  );
  let current = { report, records };
  const host = hostWebview<FromReportView, ToReportView>(panel, {
    extensionUri,
    view: 'report',
    title: panel.title,
    css: `${PAGE_CSS}\n${CHART_CSS}`,
    schema: FromReportViewSchema,
    output,
    onReady: () => host.post({ type: 'show', body: reportBody(current.report) }),
    onMessage: (m) => {
      const steps = drillKeys(current.report)[m.key];
      if (!steps) return;
      const recordOf = (id: string) => current.records.find((r) => stepIdOf(r) === id);
      void openSteps(
        dir,
        steps.map(recordOf).filter((r): r is BatchRecord => !!r),
        output,
      );
    },
  });
  panels.set(dir.root, {
    panel,
    show: (r, recs) => {
      current = { report: r, records: recs };
      host.post({ type: 'show', body: reportBody(r) });
    },
  });
  panel.onDidDispose(() => panels.delete(dir.root));
}

const stepIdOf = (r: BatchRecord) => stepId({ chainId: r.chain_id, source: r.source, mode: r.mode, order: r.order });

async function openSteps(dir: BatchRunDir, records: BatchRecord[], output: vscode.LogOutputChannel): Promise<void> {
  const pick = await vscode.window.showQuickPick(
    records.map((r) => ({
      label: `${r.chain_id} · step ${r.order} (position ${r.position})`,
      description: `${r.source} · ${r.mode} · ${r.infra_failure ? 'infra failure' : r.status}`,
      detail: r.error ?? undefined,
      record: r,
    })),
    { title: `${records.length} step(s) behind this figure`, placeHolder: 'Open the log and record of a step' },
  );
  if (pick) await openBatchStep(dir, pick.record, output);
}

/** A step's log (when the container produced one) and, beside it, its record. */
export async function openBatchStep(dir: BatchRunDir, r: BatchRecord, output: vscode.LogOutputChannel): Promise<void> {
  // Two fixed columns, both previews: opening step after step replaces them instead of adding columns.
  if (r.log)
    await vscode.window.showTextDocument(vscode.Uri.file(join(dir.root, r.log)), {
      preview: true,
      viewColumn: vscode.ViewColumn.One,
    });
  const rec = join(dir.root, 'records', `${stepIdOf(r)}.json`);
  await vscode.window.showTextDocument(vscode.Uri.file(rec), { preview: true, viewColumn: vscode.ViewColumn.Two });
  output.info(`batch ${dir.root}: opened ${stepIdOf(r)}`);
}
