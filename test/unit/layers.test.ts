// The import rule of docs/ARCHITECTURE.md, checked on the source text so a violation fails even if lint is skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const root = resolve(__dirname, '../..');
const NODE_BUILTIN = /^(node:|fs$|fs\/|child_process$|net$|http$|https$|os$|path$|worker_threads$)/;

function sourceFiles(dir: string): string[] {
  const abs = join(root, dir);
  try {
    statSync(abs);
  } catch {
    return [];
  }
  return readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(abs, f));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re =
    /(?:^|\n)\s*(?:import|export)[^'"\n;]*?(?:from\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) specs.push(m[1] ?? m[2] ?? m[3]);
  return specs;
}

/** Which top-level layer a resolved relative import lands in ('src/core', 'webview-ui', ...). */
function layerOf(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const rel = relative(root, resolve(dirname(file), spec)).replace(/\\/g, '/');
  const m = /^(src\/(?:core|protocol|infra|app|vscode|cli)|webview-ui)\b/.exec(rel);
  return m?.[1];
}

const rules: { layer: string; mayImportLayers: string[]; nodeBuiltins: boolean; vscode: boolean }[] = [
  { layer: 'src/core', mayImportLayers: ['src/core', 'src/protocol'], nodeBuiltins: false, vscode: false },
  { layer: 'src/protocol', mayImportLayers: ['src/protocol'], nodeBuiltins: false, vscode: false },
  { layer: 'src/infra', mayImportLayers: ['src/core', 'src/protocol', 'src/infra'], nodeBuiltins: true, vscode: false },
  {
    layer: 'src/app',
    mayImportLayers: ['src/core', 'src/protocol', 'src/infra', 'src/app'],
    nodeBuiltins: true,
    vscode: false,
  },
  {
    layer: 'src/cli',
    mayImportLayers: ['src/core', 'src/protocol', 'src/infra', 'src/app', 'src/cli'],
    nodeBuiltins: true,
    vscode: false,
  },
  {
    layer: 'src/vscode',
    mayImportLayers: ['src/core', 'src/protocol', 'src/infra', 'src/app', 'src/vscode'],
    nodeBuiltins: true,
    vscode: true,
  },
  { layer: 'webview-ui', mayImportLayers: ['src/protocol', 'webview-ui'], nodeBuiltins: false, vscode: false },
];

for (const rule of rules) {
  test(`${rule.layer} imports only what docs/ARCHITECTURE.md allows`, () => {
    const violations: string[] = [];
    for (const file of sourceFiles(rule.layer)) {
      for (const spec of importsOf(file)) {
        const where = `${relative(root, file)} imports '${spec}'`;
        if (spec === 'vscode' && !rule.vscode) violations.push(where);
        if (!rule.nodeBuiltins && NODE_BUILTIN.test(spec)) violations.push(where);
        const target = layerOf(file, spec);
        if (target && !rule.mayImportLayers.includes(target)) violations.push(where);
      }
    }
    assert.deepEqual(violations, []);
  });
}

test("only src/vscode and src/extension.ts import 'vscode'", () => {
  const offenders = sourceFiles('src')
    .filter((f) => !relative(root, f).startsWith('src/vscode/') && relative(root, f) !== 'src/extension.ts')
    .filter((f) => importsOf(f).includes('vscode'))
    .map((f) => relative(root, f));
  assert.deepEqual(offenders, []);
});

test('the scanner itself catches a violation (guards against a rule that cannot fail)', () => {
  const fake = join(root, 'src/core/x.ts');
  assert.equal(layerOf(fake, '../infra/git'), 'src/infra');
  assert.equal(layerOf(fake, '../app/run'), 'src/app');
  assert.ok(NODE_BUILTIN.test('node:fs'));
  assert.deepEqual(importsOf(__filename).includes('node:fs'), true);
});
