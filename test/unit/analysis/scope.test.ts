import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeStep, jaccard } from '../../../src/core/analysis/analyzeStep';
import { decorationsFor } from '../../../src/core/analysis/decorations';
import { parsePatch } from '../../../src/core/patch/parse';
import { diffOf, symbols } from './helpers';

const base: Record<string, string> = {
  'a.py': 'def f():\n    return 1\n\n\ndef g():\n    return 2\n',
  'b.py': 'X = 1\n',
  'README.txt': 'hello\nworld\n',
  'c.py': 'def h():\n    return 3\n',
};

function patch(changes: Record<string, string>): string {
  return Object.entries(changes)
    .map(([path, after]) => diffOf(path, base[path] ?? '', after))
    .join('\n');
}

const run = (step: Record<string, string>, gold: Record<string, string>, withSymbols = true) =>
  analyzeStep({
    stepPatch: parsePatch(patch(step)),
    goldPatch: parsePatch(patch(gold)),
    readFile: async (p) => base[p],
    symbols: withSymbols ? symbols : undefined,
  });

test('jaccard: |A∩B|/|A∪B|, null when both empty', () => {
  assert.equal(jaccard(new Set(['a', 'b']), new Set(['b', 'c'])), 1 / 3);
  assert.equal(jaccard(new Set(), new Set()), null);
  assert.equal(jaccard(new Set(['a']), new Set(['a'])), 1);
});

test('file and symbol overshoot/undershoot across several files, with Jaccard of each', async () => {
  const a = await run(
    {
      'a.py': base['a.py'].replace('return 1', 'return 10').replace('return 2', 'return 20'),
      'README.txt': 'hello\nthere\n',
    },
    { 'a.py': base['a.py'].replace('return 1', 'return 11'), 'c.py': 'def h():\n    return 33\n' },
  );
  assert.deepEqual(
    a.files.overshoot.map((e) => e.file),
    ['README.txt'],
  );
  assert.deepEqual(
    a.files.undershoot.map((e) => e.file),
    ['c.py'],
  );
  assert.equal(a.files.jaccard, 1 / 3);
  assert.deepEqual(
    a.symbols.overshoot.map((e) => `${e.file}::${e.symbol}`),
    ['a.py::g'],
  );
  assert.deepEqual(
    a.symbols.undershoot.map((e) => `${e.file}::${e.symbol}`),
    ['c.py::h'],
  );
  // step {a.f, a.g}, gold {a.f, c.h}: 1 of 3 pairs shared; README.txt has no symbols.
  assert.equal(a.symbols.jaccard, 1 / 3);
  assert.deepEqual(a.symbols.overshoot[0].ranges, [{ side: 'step', startLine: 6, endLine: 6 }]);
  const readme = a.coverage.find((c) => c.file === 'README.txt');
  assert.deepEqual(readme, {
    file: 'README.txt',
    language: null,
    level: 'file',
    note: 'no grammar for this file type: file-level only',
  });
});

test('a file with no grammar still gets file-level decorations; symbol-level files get symbol ones', async () => {
  const a = await run(
    { 'README.txt': 'hello\nthere\n', 'a.py': base['a.py'].replace('return 2', 'return 20') },
    { 'a.py': base['a.py'].replace('return 1', 'return 11') },
  );
  const decos = decorationsFor(a);
  const readme = decos.find((d) => d.file === 'README.txt')!;
  assert.deepEqual(
    readme.decorations.map((d) => [d.kind, d.startLine, d.endLine]),
    [['overshoot', 2, 2]],
  );
  const py = decos.find((d) => d.file === 'a.py')!;
  assert.deepEqual(
    py.decorations.filter((d) => d.kind !== 'drift').map((d) => [d.kind, d.symbol, d.startLine]),
    [
      ['undershoot', 'f', 2],
      ['overshoot', 'g', 6],
    ],
  );
});

test('undershoot of a file the step never touched lands on the unchanged lines of the step version', async () => {
  const a = await run(
    { 'a.py': base['a.py'].replace('return 1', 'return 10') },
    { 'a.py': base['a.py'].replace('return 1', 'return 10'), 'c.py': 'def h():\n    return 33\n' },
  );
  const [entry] = a.symbols.undershoot;
  assert.deepEqual(entry.ranges, [
    { side: 'gold', startLine: 2, endLine: 2 },
    { side: 'step', startLine: 2, endLine: 2 },
  ]);
});

test('without a symbol index everything is file level, with the reason', async () => {
  const a = await run({ 'a.py': 'x\n' }, { 'a.py': 'y\n' }, false);
  assert.equal(a.files.jaccard, 1);
  assert.equal(a.symbols.jaccard, null);
  assert.deepEqual(a.coverage, [{ file: 'a.py', language: 'python', level: 'file', note: 'no symbol index given' }]);
});

test('a pre-image the patch does not apply to falls back to file level, naming the hunk', async () => {
  const a = await analyzeStep({
    stepPatch: parsePatch(patch({ 'a.py': 'def f():\n    return 5\n' })),
    goldPatch: parsePatch(patch({ 'a.py': 'def f():\n    return 6\n' })),
    readFile: async () => 'something else entirely\n',
    symbols,
  });
  assert.equal(a.coverage[0].level, 'file');
  assert.match(a.coverage[0].note ?? '', /^a\.py: hunk @@ .* does not apply/);
  assert.equal(a.files.jaccard, 1);
});

test('a cancelled analysis stops with a clear error', async () => {
  await assert.rejects(
    analyzeStep({
      stepPatch: parsePatch(patch({ 'a.py': 'x\n' })),
      goldPatch: parsePatch(patch({ 'a.py': 'y\n' })),
      readFile: async () => '',
      symbols,
      cancellation: { isCancellationRequested: true, onCancellationRequested: () => ({ dispose() {} }) },
    }),
    /patch analysis cancelled/,
  );
});

test('a grammar that cannot be loaded: file level, with the loader reason in the coverage note', async () => {
  const { createSymbolIndex } = await import('../../../src/core/analysis/outline');
  const { TreeSitterParser } = await import('../../../src/infra/treesitter/parser');
  const broken = createSymbolIndex(new TreeSitterParser({ grammarDir: '/nonexistent/grammars' }));
  const a = await analyzeStep({
    stepPatch: parsePatch(patch({ 'a.py': 'def f():\n    return 5\n' })),
    goldPatch: parsePatch(patch({ 'a.py': 'def f():\n    return 6\n' })),
    readFile: async (p) => base[p],
    symbols: broken,
  });
  assert.equal(a.coverage[0].level, 'file');
  assert.match(a.coverage[0].note ?? '', /grammar for python could not be loaded/);
  assert.equal(a.files.jaccard, 1);
});
