// The Results view of a batch run directory: the report's tables and charts (the same markup as
// `chainlens report --html`, themed by VS Code's chart colours), where every number opens the
// steps behind it: a pick of those records, then the chosen step's log and record.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { buildBatchReport, drillKeys, reportBody, stepId, type BatchReport } from '../../core/batch';
import { CHART_CSS } from '../../core/plots';
import type { BatchRecord } from '../../protocol/batch';
import { BatchRunDir } from '../../infra/batch/runDir';
import { webviewNonce } from '../webviewHtml';

const PAGE_CSS = `body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:0 1em 2em}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid var(--vscode-panel-border,#8884);padding:.2em .6em;text-align:left}
td[data-key]{cursor:pointer;color:var(--vscode-textLink-foreground)}td[data-key]:hover{text-decoration:underline}`;

const panels = new Map<string, vscode.WebviewPanel>();
/** The message handler of each panel's current page (showing a panel again replaces it, not adds one). */
const handlers = new Map<string, vscode.Disposable>();

export function showBatchResults(runDir: string, output: vscode.LogOutputChannel): void {
  const dir = new BatchRunDir(runDir);
  const manifest = dir.readManifest();
  const records = dir.readRecords();
  const report = buildBatchReport(manifest, records);
  let panel = panels.get(dir.root);
  if (panel) panel.reveal();
  else {
    panel = vscode.window.createWebviewPanel(
      'chainlens.batchResults',
      `Batch results: ${dir.root.split(/[\\/]/).pop()}`,
      vscode.ViewColumn.Active,
      { enableScripts: true, localResourceRoots: [] },
    );
    panels.set(dir.root, panel);
    panel.onDidDispose(() => {
      panels.delete(dir.root);
      handlers.get(dir.root)?.dispose();
      handlers.delete(dir.root);
    });
  }
  const keys = drillKeys(report);
  panel.webview.html = page(report);
  const recordOf = (id: string) => records.find((r) => stepIdOf(r) === id);
  handlers.get(dir.root)?.dispose();
  const handler = panel.webview.onDidReceiveMessage((m: { key?: unknown }) => {
    if (typeof m.key !== 'string' || !keys[m.key]) return;
    void openSteps(
      dir,
      keys[m.key].map(recordOf).filter((r): r is BatchRecord => !!r),
      output,
    );
  });
  handlers.set(dir.root, handler);
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

function page(report: BatchReport): string {
  const nonce = webviewNonce();
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<style nonce="${nonce}">${PAGE_CSS}\n${CHART_CSS}</style></head>
<body>${reportBody(report)}
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const open = (el) => { const k = el.closest('[data-key]'); if (k) vscode.postMessage({ key: k.getAttribute('data-key') }); };
document.addEventListener('click', (e) => open(e.target));
document.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') open(e.target); });
</script></body></html>`;
}
