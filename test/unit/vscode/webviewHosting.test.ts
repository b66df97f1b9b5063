// Every ChainLens webview is hosted one way: its page from webviewHtml.ts and its lifecycle
// (connect, ready, zod-checked messages) from webviewHost.ts, its code in webview-ui/src. No
// panel writes its own HTML or script, or reads messages it has not checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FromReportViewSchema } from '../../../src/protocol/reportView';

const root = join(__dirname, '..', '..', '..');

function files(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

test('no panel writes its own page or reads unchecked messages: webviewHost.ts does, once', () => {
  const offenders: string[] = [];
  for (const file of files('src/vscode')) {
    if (/webview(Host|Html)\.ts$/.test(file)) continue;
    const text = readFileSync(join(root, file), 'utf8');
    for (const [what, re] of [
      ['sets webview.html', /\.webview\.html\s*=/],
      ['listens to webview messages', /onDidReceiveMessage/],
      ['writes a script', /<script|acquireVsCodeApi/],
    ] as const)
      if (re.test(text)) offenders.push(`${file}: ${what}`);
  }
  assert.deepEqual(offenders, []);
});

test('webview code lives in webview-ui/src and says ready only through the channel', () => {
  const outside = readdirSync(join(root, 'webview-ui')).filter((f) => f !== 'src');
  assert.deepEqual(outside, []);
  for (const file of files('webview-ui/src')) {
    if (file.endsWith('vscodeApi.ts')) continue;
    const text = readFileSync(join(root, file), 'utf8');
    assert.doesNotMatch(text, /type: 'ready'/, `${relative(root, file)} says ready itself`);
    assert.doesNotMatch(text, /addEventListener\('message'/, `${relative(root, file)} listens itself`);
  }
});

test("the report view's messages are checked: an open needs a key", () => {
  assert.ok(FromReportViewSchema.safeParse({ type: 'open', key: 'agent:seq:2' }).success);
  assert.ok(!FromReportViewSchema.safeParse({ type: 'open' }).success);
  assert.ok(!FromReportViewSchema.safeParse({ key: 'x' }).success);
});
