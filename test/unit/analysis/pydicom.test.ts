// The real SWE-bench pair: gold patch vs SWE-agent (GPT-4) model_patch of pydicom__pydicom-1458,
// analysed against numpy_handler.py at the instance's base commit 8da0b9b2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeStep } from '../../../src/core/analysis/analyzeStep';
import { decorationsFor } from '../../../src/core/analysis/decorations';
import { applyFilePatch } from '../../../src/core/patch/apply';
import { parsePatch } from '../../../src/core/patch/parse';
import { symbols } from './helpers';

const dir = join(__dirname, '../../fixtures/patches/pydicom-1458');
const FILE = 'pydicom/pixel_data_handlers/numpy_handler.py';
const pre = readFileSync(join(dir, 'numpy_handler.py'), 'utf8');
const run = () =>
  analyzeStep({
    stepPatch: parsePatch(readFileSync(join(dir, 'agent.diff'), 'utf8'), 'agent.diff'),
    goldPatch: parsePatch(readFileSync(join(dir, 'gold.diff'), 'utf8'), 'gold.diff'),
    readFile: async (path) => (path === FILE ? pre : undefined),
    symbols,
  });

test('pydicom-1458: same file as gold, no file overshoot, file Jaccard 1', async () => {
  const a = await run();
  assert.deepEqual(a.files.overshoot, []);
  assert.deepEqual(a.files.undershoot, []);
  assert.equal(a.files.jaccard, 1);
  assert.deepEqual(a.coverage, [{ file: FILE, language: 'python', level: 'symbol' }]);
});

test('pydicom-1458: same function as gold; gold also updates the module docstring table', async () => {
  const a = await run();
  assert.deepEqual(a.symbols.step, [`${FILE}::get_pixeldata`]);
  assert.equal(a.symbols.jaccard, 1);
  assert.deepEqual(a.symbols.overshoot, []);
  assert.deepEqual(
    a.symbols.undershoot.map((u) => u.symbol),
    ['<module>'],
  );
});

test('pydicom-1458: INPUT GATING suggested with the missing PlanarConfiguration check and BitsStored requirement as evidence', async () => {
  const a = await run();
  const s = a.drift.find((d) => d.symbol === 'get_pixeldata' && d.label === 'INPUT GATING');
  assert.ok(s, `suggestions: ${a.drift.map((d) => d.label)}`);
  assert.equal(s.primary, true);
  assert.equal(s.iec, true);
  assert.equal(s.source, 'suggested');
  const gold = s.evidence.filter((e) => e.side === 'gold').map((e) => e.text);
  const step = s.evidence.filter((e) => e.side === 'step').map((e) => e.text);
  assert.ok(gold.includes("if not hasattr(ds, 'PlanarConfiguration'):"), gold.join('\n'));
  assert.ok(gold.includes("required_elements.extend(['PixelRepresentation', 'BitsStored'])"), gold.join('\n'));
  assert.ok(step.includes("required_elements.append('PixelRepresentation')"), step.join('\n'));
  // Evidence line numbers point at those lines of each side's version of the file.
  for (const e of s.evidence) {
    const post = applyFilePatch(
      pre,
      parsePatch(readFileSync(join(dir, e.side === 'gold' ? 'gold.diff' : 'agent.diff'), 'utf8')).files[0],
    );
    assert.equal(post.split('\n')[e.line - 1].trim(), e.text);
  }
});

test('pydicom-1458: metrics show the step simpler than gold (fewer branches)', async () => {
  const a = await run();
  const m = a.metrics.find((x) => x.symbol === 'get_pixeldata')!;
  assert.ok(m.cyclomatic.gold! > m.cyclomatic.step!);
  assert.ok(m.delta.cyclomatic! < 0);
  assert.equal(m.cyclomatic.base! < m.cyclomatic.gold!, true);
});

test('pydicom-1458: editor decorations on the step file: drift on the changed requirement, undershoot on the docstring table', async () => {
  const a = await run();
  const [file] = decorationsFor(a);
  assert.equal(file.file, FILE);
  const drift = file.decorations.find((d) => d.kind === 'drift')!;
  const stepPost = applyFilePatch(pre, parsePatch(readFileSync(join(dir, 'agent.diff'), 'utf8')).files[0]).split('\n');
  assert.match(stepPost[drift.startLine - 1] ?? '', /PixelData/);
  assert.match(drift.hover, /^Suggested drift: INPUT GATING \(B divergent, input\/error contract\) in get_pixeldata/);
  assert.match(drift.hover, /gold \d+: if not hasattr\(ds, 'PlanarConfiguration'\):/);
  assert.match(drift.hover, /not a verdict/);
  const under = file.decorations.find((d) => d.kind === 'undershoot')!;
  assert.equal(under.symbol, '<module>');
  assert.match(stepPost[under.startLine - 1], /PixelRepresentation/);
  assert.match(under.hover, /Relative to the gold patch, not proof of a bug/);
});
