// Runs inside an extension host of code-server, driven by bench/viewer.ts: times evaluating a copy
// of ChainLens's bundle (Node compiles and runs the module again; nothing is activated), the floor
// under activation, and appends one JSON line to the workspace's figures file.
import * as assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { suite, test } from '../test/e2e/harness/exthost/suite';

suite('loading the bundle in an extension host', () => {
  test('evaluating a copy of dist/extension.js', () => {
    const extension = vscode.extensions.getExtension('chainlens.chainlens');
    assert.ok(extension, 'ChainLens is installed');
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-bench-bundle-'));
    try {
      const copy = join(dir, 'extension.js');
      copyFileSync(join(extension.extensionPath, 'dist', 'extension.js'), copy);
      const t0 = performance.now();
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(copy);
      const loadMs = performance.now() - t0;
      appendFileSync(join(root, '.chainlens-bench-load.jsonl'), JSON.stringify({ loadMs }) + '\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
