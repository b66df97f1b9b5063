// No dead exports: an export that no module imports (tests and benchmarks count) and that its own
// file does not use either is code nobody runs. Exports used only inside their own file are
// allowed (dropping `export` there is tidying, not removing code).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { BARREL, findUnusedExports, typeScriptFiles } from '../../helpers/unusedExports';

const root = join(import.meta.dirname, '..', '..', '..');

/** The bundles' entry files (esbuild.mjs): their exports are called from outside (VS Code calls `activate`). */
const ENTRY_POINTS = [
  'src/extension.ts',
  'src/cli/main.ts',
  'src/infra/trajectories/parseWorker.ts',
  'src/app/analysis/analysisWorker.ts',
  'webview-ui/src/main.ts',
];

test('every export of src/ and webview-ui/ is imported somewhere or used in its own file', () => {
  const files = typeScriptFiles(root, ['src', 'webview-ui', 'test', 'bench', 'scripts']);
  const scanned = (f: string) => f.startsWith(join(root, 'src')) || f.startsWith(join(root, 'webview-ui'));
  const unused = findUnusedExports(root, files, scanned, new Set(ENTRY_POINTS.map((f) => join(root, f))));
  const dead = unused.filter((u) => !u.usedLocally).map((u) => `${u.file}:${u.line} ${u.name}`);
  assert.deepEqual(dead, [], `exports nothing uses (remove them):\n${dead.join('\n')}`);
});

test('the scan finds an export nothing uses, and follows re-exports (failure injection on a fixture tree)', () => {
  const fixture = join(root, 'test', 'fixtures', 'unusedExports');
  const files = typeScriptFiles(fixture, ['.']);
  const found = findUnusedExports(fixture, files, () => true, new Set([join(fixture, 'main.ts')]));
  assert.deepEqual(
    found.map((u) => `${u.file} ${u.name}${u.usedLocally ? ' (local)' : ''}`),
    ['lib/a.ts onlyLocal (local)', 'lib/a.ts neverImported', 'lib/b.ts viaStarUnused'],
  );
});

test('the scan finds a barrel nobody imports, though each name it re-exports is used (failure injection on a fixture tree)', () => {
  const fixture = join(root, 'test', 'fixtures', 'unusedBarrel');
  const found = findUnusedExports(
    fixture,
    typeScriptFiles(fixture, ['.']),
    () => true,
    new Set([join(fixture, 'main.ts')]),
  );
  assert.deepEqual(
    found.map((u) => `${u.file} ${u.name}`),
    [`lib/index.ts ${BARREL}`],
  );
});
