// The target list against the analysis: on real SWE-bench instances (pydicom-1458 with its file at
// the base commit; the demo chain's three instances), the skeleton removes exactly the bodies of
// the functions the gold patch changes, as `chainlens analyze` finds them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeStep } from '../../../src/core/analysis/analyzeStep';
import { createSymbolIndex } from '../../../src/core/analysis/outline';
import { buildSkeleton } from '../../../src/core/codethread/skeleton';
import { parsePatch } from '../../../src/core/patch/parse';
import { TreeSitterParser } from '../../../src/infra/treesitter/parser';
import { demoRepo, DEMO_CHAIN } from '../../helpers/demoRepo';
import { loadChain } from '../../../src/core/formats/loadChain';

const parser = new TreeSitterParser();
const symbols = createSymbolIndex(parser);

/** Functions and methods gold changes per the analysis, that exist at base: `file::name`. */
async function goldChangedFunctions(gold: string, read: (p: string) => Promise<string | undefined>) {
  const a = await analyzeStep({
    stepPatch: parsePatch('', 'none'),
    goldPatch: parsePatch(gold, 'gold'),
    readFile: read,
    symbols,
  });
  const out: string[] = [];
  for (const u of a.symbols.undershoot) {
    if (u.kind !== 'function' && u.kind !== 'method') continue;
    const base = await read(u.file);
    const outline = base === undefined ? undefined : await symbols.open(u.file, base);
    if (outline?.find(u.symbol!)) out.push(`${u.file}::${u.symbol}`);
    outline?.dispose();
  }
  return out.sort();
}

async function compare(gold: string, read: (p: string) => Promise<string | undefined>) {
  const skeleton = await buildSkeleton({ goldPatch: parsePatch(gold, 'gold'), readFile: read, parser });
  assert.equal(skeleton.kind, 'skeleton');
  if (skeleton.kind !== 'skeleton') return;
  const targets = skeleton.targets.map((t) => `${t.file}::${t.function}`).sort();
  assert.deepEqual(targets, await goldChangedFunctions(gold, read));
  for (const f of skeleton.files) {
    const reparsed = await symbols.open(f.path, f.skeleton);
    // every target is still there, signature and all; every other symbol is unchanged
    const before = await symbols.open(f.path, f.base);
    assert.deepEqual(
      reparsed!.symbols.map((s) => s.qualifiedName).filter((n) => before!.find(n)),
      before!.symbols.map((s) => s.qualifiedName).filter((n) => reparsed!.find(n)),
    );
    for (const t of f.targets) assert.ok(reparsed!.find(t.function), `${t.function} is in the skeleton`);
    for (const s of before!.symbols) {
      if (f.targets.some((t) => t.function === s.qualifiedName || s.qualifiedName.startsWith(`${t.function}.`)))
        continue;
      assert.equal(
        reparsed!.detail(s.qualifiedName)?.text,
        before!.detail(s.qualifiedName)?.text,
        `${s.qualifiedName} untouched`,
      );
    }
    reparsed!.dispose();
    before!.dispose();
  }
  return skeleton;
}

test('pydicom__pydicom-1458 (SWE-bench): get_pixeldata is the one target; the module docstring change is not', async () => {
  const dir = join(__dirname, '../../fixtures/patches/pydicom-1458');
  const instance = JSON.parse(
    readFileSync(join(__dirname, '../../fixtures/formats/swebench_instance__pydicom__pydicom-1458.json'), 'utf8'),
  )[0] as { patch: string };
  const file = 'pydicom/pixel_data_handlers/numpy_handler.py';
  const base = readFileSync(join(dir, 'numpy_handler.py'), 'utf8');
  const s = await compare(instance.patch, async (p) => (p === file ? base : undefined));
  assert.deepEqual(
    s?.targets.map((t) => [t.function, t.kind]),
    [['get_pixeldata', 'function']],
  );
  // The docstring stays, the body goes.
  const skeleton = s!.files[0].skeleton;
  assert.match(
    skeleton,
    /def get_pixeldata\(ds: "Dataset", read_only: bool = False\) -> "np\.ndarray":\n    """Return a :class:/,
  );
  assert.equal(skeleton.includes('required_elements = ['), false);
  assert.equal(
    skeleton.includes('| (0028,0103) | PixelRepresentation       | 1    | 0, 1          | Required |'),
    true,
  );
});

test("the demo chain's instances: targets = the functions each gold patch changes", async () => {
  const chain = loadChain('chain.json', readFileSync(DEMO_CHAIN, 'utf8'));
  const repo = demoRepo();
  // Instance k's base is base + the gold (and test) patches before it; build it in memory.
  const files = new Map<string, string>();
  const read = async (p: string) => {
    if (!files.has(p)) {
      try {
        files.set(p, execFileSync('git', ['show', `HEAD:${p}`], { cwd: repo, encoding: 'utf8' }));
      } catch {
        return undefined;
      }
    }
    return files.get(p);
  };
  const { applyFilePatch } = await import('../../../src/core/patch/apply');
  const { filePath } = await import('../../../src/core/patch/types');
  const expected = [
    ['invoicekit/parse.py::parse_amount'],
    ['invoicekit/parse.py::_to_decimal'],
    [
      'invoicekit/importer.py::_tax_rate',
      'invoicekit/importer.py::load_invoice_csv',
      'invoicekit/parse.py::_to_decimal',
      'invoicekit/parse.py::parse_amount',
      'invoicekit/parse.py::parse_decimal',
      'invoicekit/parse.py::parse_percent',
    ],
  ];
  for (const [k, step] of chain.steps.entries()) {
    const s = await compare(step.goldPatch, read);
    assert.deepEqual(s?.targets.map((t) => `${t.file}::${t.function}`).sort(), expected[k]);
    for (const patch of [step.testPatch, step.goldPatch])
      for (const f of parsePatch(patch, 'p').files)
        files.set(filePath(f), applyFilePatch((await read(filePath(f))) ?? '', f));
  }
});
