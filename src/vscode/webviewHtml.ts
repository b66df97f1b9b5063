// The host page of a ChainLens webview: dist/webview.js with a fresh nonce, a strict CSP that
// allows nothing remote (no network, no inline code without the nonce), the codicon font and
// the view's stylesheet from the extension folder only (or CSS made in code, under the nonce).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function webviewNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** Folders a ChainLens webview may load files from. */
export function webviewRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function webviewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  options: { view: string; title: string; stylesheet?: string; css?: string },
): string {
  const nonce = webviewNonce();
  const asset = (...path: string[]): vscode.Uri => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const escape = (text: string): string =>
    text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" id="vscode-codicon-stylesheet" nonce="${nonce}" href="${asset('media', 'codicons', 'codicon.css')}">
  ${options.stylesheet ? `<link rel="stylesheet" nonce="${nonce}" href="${asset('media', options.stylesheet)}">` : ''}
  ${options.css ? `<style nonce="${nonce}">${options.css}</style>` : ''}
  <title>${escape(options.title)}</title>
</head>
<body data-view="${escape(options.view)}">
  <main id="root"></main>
  <script nonce="${nonce}" src="${asset('dist', 'webview.js')}"></script>
</body>
</html>`;
}
