// Inside the extension host of a VS Code that installed ChainLens from its .vsix: the packaged
// extension resumes the work tree's run, and the files it loads at run time from node_modules
// (web-tree-sitter and the grammars, which esbuild does not bundle) are in the package and work.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suite, suiteSetup, test } from '../harness/exthost/suite';
import type { ChainLensApi } from '../../../src/extension';

let extension: vscode.Extension<ChainLensApi>;

suite('ChainLens installed from its .vsix', () => {
  suiteSetup(async () => {
    extension = vscode.extensions.getExtension<ChainLensApi>('chainlens.chainlens')!;
    assert.ok(extension, 'chainlens.chainlens is installed');
    await (
      await extension.activate()
    ).ready;
  });

  test('runs from the extensions folder, not from the repository', () => {
    assert.match(extension.extensionPath, /extensions[/\\]chainlens\.chainlens-\d/);
    assert.ok(existsSync(join(extension.extensionPath, 'dist', 'extension.js')));
    assert.ok(!existsSync(join(extension.extensionPath, 'src')), 'sources are not shipped');
    assert.ok(
      !existsSync(join(extension.extensionPath, 'node_modules', 'dockerode')),
      'bundled dependencies are not shipped',
    );
  });

  test('resumed the run of the work tree it was opened on', () => {
    const run = extension.exports.services.run;
    assert.ok(run);
    assert.deepEqual([run.state.mode, run.state.currentStep], ['seq', 1]);
  });

  test('web-tree-sitter and the Python grammar load from the packaged node_modules and parse', async () => {
    // Resolved the way the bundle resolves it: a bare specifier from dist/extension.js.
    const requireFromBundle = createRequire(join(extension.extensionPath, 'dist', 'extension.js'));
    const { Parser, Language } = requireFromBundle('web-tree-sitter') as typeof import('web-tree-sitter');
    await Parser.init({
      locateFile: () => join(extension.extensionPath, 'node_modules', 'web-tree-sitter', 'tree-sitter.wasm'),
    });
    const python = await Language.load(
      join(extension.extensionPath, 'node_modules', 'tree-sitter-wasms', 'out', 'tree-sitter-python.wasm'),
    );
    const parser = new Parser();
    parser.setLanguage(python);
    const tree = parser.parse('def parse_amount(text):\n    return text\n')!;
    assert.equal(tree.rootNode.firstChild?.type, 'function_definition');
    for (const lang of ['javascript', 'typescript', 'tsx', 'go', 'java', 'rust']) {
      assert.ok(
        existsSync(
          join(extension.extensionPath, 'node_modules', 'tree-sitter-wasms', 'out', `tree-sitter-${lang}.wasm`),
        ),
        lang,
      );
    }
  });
});
