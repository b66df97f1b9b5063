// The editor's analysis source on the real demo repository (real git, real tree-sitter): step 1
// submitted with the demo agent's undershooting patch, then edited further in the work tree.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSymbolIndex } from '../../../src/core/analysis/outline';
import { Git } from '../../../src/infra/git/git';
import { TreeSitterParser } from '../../../src/infra/treesitter/parser';
import { annotateStep, workTreeChanged } from '../../../src/app/analysis/annotateStep';
import type { ChainRunSnapshot } from '../../../src/app/run/snapshot';
import { demoRepoAfterRecordedStep1 } from '../../helpers/demoRepo';
import type { StepState } from '../../../src/protocol/run';

const root = join(__dirname, '..', '..', '..');
const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim();

describe('analysis source for the editor (demo chain step 1)', () => {
  let repo: ReturnType<typeof demoRepoAfterRecordedStep1>;
  let dir: string;
  let base: string;
  let end: string;
  const symbols = createSymbolIndex(new TreeSitterParser());
  const gold = readFileSync(join(root, 'demo', 'steps', '1', 'gold.patch'), 'utf8');

  before(() => {
    repo = demoRepoAfterRecordedStep1();
    ({ dir, base, end } = repo);
  });
  after(() => repo.remove());

  const snapshot = (step: StepState): ChainRunSnapshot =>
    ({
      dir,
      state: { runId: 'r1', currentStep: step.end ? null : 1, steps: [step] },
      chain: { id: 'demo', steps: [{ goldPatch: gold }] },
      workspace: { git: new Git(dir) },
    }) as unknown as ChainRunSnapshot;
  const step = (e: string | null): StepState => ({
    order: 1,
    instanceId: 'i-101',
    author: { kind: 'human' },
    status: e ? 'submitted' : 'current',
    start: base,
    end: e,
    startedAt: null,
    submittedAt: null,
    elapsedMs: null,
    patch: null,
    note: null,
  });

  it('annotates a submitted step: the drift suggestion in parse_amount, the changed symbol to label, the gold version', async () => {
    const s = step(end);
    const a = await annotateStep(snapshot(s), s, { dirty: new Map(), symbols });
    assert.equal(a.live, false);
    const decorations = a.decorations.get('invoicekit/parse.py') ?? [];
    assert.deepEqual(
      decorations.map((d) => [d.kind, d.symbol, d.label]),
      [['drift', 'parse_amount', 'INPUT GATING']],
    );
    assert.deepEqual(
      a.symbols.map((x) => [x.file, x.symbol, x.suggestion?.label]),
      [['invoicekit/parse.py', 'parse_amount', 'INPUT GATING']],
    );
  });

  it('folds unsaved editor text of the current step into its patch (overshoot where gold changes nothing)', async () => {
    const s = step(null);
    git(dir, 'reset', '-q', '--hard', base);
    assert.equal(await workTreeChanged(snapshot(s), s), false);
    const file = join(dir, 'invoicekit', 'parse.py');
    const text = readFileSync(file, 'utf8').replace(
      '    cleaned = text.strip()\n    if _DECIMAL_RE',
      '    cleaned = text.strip().lower()\n    if _DECIMAL_RE',
    );
    const a = await annotateStep(snapshot(s), s, { dirty: new Map([['invoicekit/parse.py', text]]), symbols });
    const d = a.decorations.get('invoicekit/parse.py') ?? [];
    assert.ok(
      d.some((x) => x.kind === 'overshoot' && x.symbol === 'parse_decimal'),
      JSON.stringify(d),
    );
    assert.ok(d.some((x) => x.kind === 'undershoot' && x.symbol === 'parse_amount'));
    // On disk the work tree is unchanged: saving is what makes it part of the step.
    writeFileSync(file, text);
    assert.equal(await workTreeChanged(snapshot(s), s), true);
  });

  it('gives unsaved editor text the marks the same text gets once saved (hunks as git diff makes them)', async () => {
    const s = step(null);
    git(dir, 'reset', '-q', '--hard', base);
    const file = 'invoicekit/parse.py';
    // Several edits far apart, one of them a line without a final newline at the end of the file.
    const text = `# edited at the top\n${readFileSync(join(dir, file), 'utf8').replace(
      '    cleaned = text.strip()\n    if _DECIMAL_RE',
      '    cleaned = text.strip().lower()\n    if _DECIMAL_RE',
    )}# no newline at the end`;
    const unsaved = await annotateStep(snapshot(s), s, { dirty: new Map([[file, text]]), symbols });
    writeFileSync(join(dir, file), text);
    const saved = await annotateStep(snapshot(s), s, { dirty: new Map(), symbols });
    assert.ok((unsaved.decorations.get(file) ?? []).length > 0);
    assert.deepEqual(unsaved.decorations, saved.decorations);
    assert.deepEqual(unsaved.analysis, saved.analysis);
    git(dir, 'checkout', '-q', '--', '.');
  });

  it("draws a submitted step's marks where its code is unchanged in the work tree since, and none where it changed", async () => {
    const s = step(end);
    git(dir, 'reset', '-q', '--hard', end);
    const file = 'invoicekit/parse.py';
    const atEnd = readFileSync(join(dir, file), 'utf8');
    const plain = await annotateStep(snapshot(s), s, { dirty: new Map(), symbols });
    const [drift] = plain.decorations.get(file) ?? [];
    assert.equal(drift?.symbol, 'parse_amount');
    // A later step adds two lines at the top (unsaved): the mark and the symbol move down by two.
    const shifted = await annotateStep(snapshot(s), s, { dirty: new Map([[file, `# one\n# two\n${atEnd}`]]), symbols });
    const [moved] = shifted.decorations.get(file) ?? [];
    assert.deepEqual([moved?.startLine, moved?.endLine], [drift.startLine + 2, drift.endLine + 2]);
    assert.equal(shifted.symbols[0]?.startLine, plain.symbols[0].startLine + 2);
    assert.deepEqual(shifted.lines.toStep(file, { startLine: moved.startLine, endLine: moved.endLine }), {
      startLine: drift.startLine,
      endLine: drift.endLine,
    });
    assert.deepEqual(shifted.lines.changedSince, [file]);
    // ...and then rewrites the evidence line itself (saved): that mark no longer describes the code.
    const lines = atEnd.split('\n');
    lines[drift.startLine - 1] = `${lines[drift.startLine - 1]}  # rewritten`;
    writeFileSync(join(dir, file), lines.join('\n'));
    const rewritten = await annotateStep(snapshot(s), s, { dirty: new Map(), symbols });
    assert.deepEqual(rewritten.decorations.get(file), []);
    assert.equal(rewritten.lines.toWorkTree(file, { startLine: drift.startLine, endLine: drift.endLine }), undefined);
    git(dir, 'checkout', '-q', '--', '.');
  });
});
