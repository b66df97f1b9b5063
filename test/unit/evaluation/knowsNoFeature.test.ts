// Evaluation is generic (docs/ARCHITECTURE.md, "Where each concept lives"): a feature with a rule
// of its own for a step (CodeThread's PR1 filter) passes it in as a judge, so nothing under
// src/core/evaluation imports a feature's folder. Checked on the source text, like layers.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(__dirname, '../../..');
const FEATURES = ['codethread', 'sweci', 'study', 'batch', 'labels', 'trajectories', 'agent'];

/** Every import of a feature's folder of `core` made by a file under `core/evaluation`. */
function featureImports(core: string): string[] {
  const dir = join(core, 'evaluation');
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.ts')) continue;
    const file = join(dir, name);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bfrom\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]/g)) {
      const feature = relative(core, resolve(dirname(file), m[1] ?? m[2])).split(/[\\/]/)[0];
      if (FEATURES.includes(feature)) out.push(`${relative(core, file).replace(/\\/g, '/')} -> ${feature}`);
    }
  }
  return out;
}

test('src/core/evaluation imports no feature: verdicts, specs and grading know none', () => {
  assert.deepEqual(featureImports(join(root, 'src', 'core')), []);
});

test('the check sees a feature import (failure injection on a fixture tree)', () => {
  const core = mkdtempSync(join(tmpdir(), 'chainlens-core-'));
  try {
    mkdirSync(join(core, 'evaluation', 'grading'), { recursive: true });
    writeFileSync(join(core, 'evaluation', 'verdict.ts'), "import { pr1Filter } from '../codethread/filter';\n");
    writeFileSync(join(core, 'evaluation', 'grading', 'x.ts'), "import { a } from '../script';\n");
    assert.deepEqual(featureImports(core), ['evaluation/verdict.ts -> codethread']);
  } finally {
    rmSync(core, { recursive: true, force: true });
  }
});
