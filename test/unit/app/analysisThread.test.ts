// The editor's analysis runs in a worker thread (dist/analysis-worker.js; from source under tsx
// here). Whatever runs it, the result must be the one the caller's thread computes: compared on
// the multi-language fixture and on the demo chain's step, through annotateStep as the editor
// calls it. A cancelled request stops, and the worker then answers the next one; a missing worker
// bundle falls back to the caller's thread, with the same result.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { createSymbolIndex } from '../../../src/core/analysis/outline';
import { parsePatch } from '../../../src/core/patch/parse';
import type { Patch } from '../../../src/core/patch/types';
import { AnalysisThread } from '../../../src/app/analysis/analysisThread';
import { analyzeStepFiles, type StepFilesJob } from '../../../src/app/analysis/analyzeStepFiles';
import { annotateStep } from '../../../src/app/analysis/annotateStep';
import type { ChainRunSnapshot } from '../../../src/app/run/snapshot';
import { Git } from '../../../src/infra/git/git';
import { TreeSitterParser } from '../../../src/infra/treesitter/parser';
import type { StepState } from '../../../src/protocol/run';
import { demoRepoAfterRecordedStep1 } from '../../helpers/demoRepo';

const root = join(__dirname, '..', '..', '..');
const FIXTURES = join(root, 'test', 'fixtures', 'analysis');

/** The fixture's step and gold versions of every file as patches over its base versions. */
function fixtureJob(): StepFilesJob {
  const names = readdirSync(join(FIXTURES, 'base')).sort();
  const read = (side: string, name: string) => readFileSync(join(FIXTURES, side, name), 'utf8');
  const patchOf = (side: string): Patch =>
    parsePatch(
      names.map((n) => createTwoFilesPatch(`a/${n}`, `b/${n}`, read('base', n), read(side, n))).join(''),
      side,
    );
  return {
    stepPatch: patchOf('step'),
    goldPatch: patchOf('gold'),
    preImages: new Map(names.map((n) => [n, read('base', n)])),
  };
}

const cancelled = {
  isCancellationRequested: true,
  onCancellationRequested: () => ({ dispose() {} }),
};

describe('analysis worker', () => {
  const thread = new AnalysisThread({ thread: 'worker' });
  const here = createSymbolIndex(new TreeSitterParser());
  after(() => thread.dispose());

  it('gives the result of the caller’s thread on five languages (scope, metrics, drift, changed symbols)', async () => {
    const job = fixtureJob();
    const inWorker = await thread.analyze(job);
    assert.equal(thread.where, 'worker');
    const inThread = await analyzeStepFiles(job, here);
    assert.ok(inThread.analysis.metrics.length > 0 && inThread.analysis.drift.length > 0, 'the fixture has findings');
    assert.deepEqual(inWorker, inThread);
  });

  it('lists a text’s symbols as an outline on the caller’s thread does, line for line', async () => {
    const text = readFileSync(join(FIXTURES, 'step', 'store.ts'), 'utf8');
    const list = await thread.symbolsOf('store.ts', text);
    const outline = await here.open('store.ts', text);
    assert.ok(list && outline && outline.symbols.length > 3);
    assert.deepEqual(list.symbols, outline.symbols);
    const lines = text.split('\n').length;
    for (let line = 0; line <= lines + 1; line++)
      assert.deepEqual(list.symbolAt(line), outline.symbolAt(line), `line ${line}`);
    outline.dispose();
    assert.equal(await thread.symbolsOf('notes.txt', 'no grammar'), undefined);
  });

  it('stops a cancelled request, then answers the next one', async () => {
    await assert.rejects(thread.analyze(fixtureJob(), cancelled), /patch analysis cancelled/);
    const next = await thread.analyze(fixtureJob());
    assert.ok(next.analysis.coverage.every((c) => c.level === 'symbol'));
  });

  it('falls back to the caller’s thread when the worker bundle is missing, with the same result', async () => {
    const reasons: string[] = [];
    const fallback = new AnalysisThread({
      workerScript: join(root, 'dist', 'no-such-analysis-worker.js'),
      onFallback: (why) => reasons.push(why),
    });
    try {
      const job = fixtureJob();
      const result = await fallback.analyze(job);
      assert.equal(fallback.where, 'current');
      assert.equal(reasons.length, 1);
      assert.match(reasons[0], /no-such-analysis-worker\.js is missing/);
      assert.deepEqual(result, await analyzeStepFiles(job, here));
    } finally {
      fallback.dispose();
    }
  });
});

describe('annotateStep through the analysis worker (demo chain step 1)', () => {
  let repo: ReturnType<typeof demoRepoAfterRecordedStep1>;
  const thread = new AnalysisThread({ thread: 'worker' });
  const gold = readFileSync(join(root, 'demo', 'steps', '1', 'gold.patch'), 'utf8');
  before(() => (repo = demoRepoAfterRecordedStep1()));
  after(() => {
    thread.dispose();
    repo.remove();
  });

  it('annotates as on the caller’s thread: decorations, changed symbols and lines', async () => {
    const step: StepState = {
      order: 1,
      instanceId: 'i-101',
      author: { kind: 'human' },
      status: 'submitted',
      start: repo.base,
      end: repo.end,
      startedAt: null,
      submittedAt: null,
      elapsedMs: null,
      patch: null,
      note: null,
    };
    const run = {
      dir: repo.dir,
      state: { runId: 'r1', currentStep: null, steps: [step] },
      chain: { id: 'demo', steps: [{ goldPatch: gold }] },
      workspace: { git: new Git(repo.dir) },
    } as unknown as ChainRunSnapshot;
    const inWorker = await annotateStep(run, step, { dirty: new Map(), analyzer: thread });
    const inThread = await annotateStep(run, step, {
      dirty: new Map(),
      symbols: createSymbolIndex(new TreeSitterParser()),
    });
    assert.equal(thread.where, 'worker');
    assert.deepEqual(
      [...(inWorker.decorations.get('invoicekit/parse.py') ?? [])].map((d) => [d.kind, d.symbol]),
      [['drift', 'parse_amount']],
    );
    const { lines: _a, ...worker } = inWorker;
    const { lines: _b, ...current } = inThread;
    assert.deepEqual(worker, current);
  });
});
