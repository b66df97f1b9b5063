// Seq step 3 of the demo chain (real git, real tree-sitter): the demo agent's steps 1 and 2 are
// the start, and gold's patch of step 3 does not apply there. Gold's version is read on the step's
// Oracle state (base + the gold test patches and patches of steps 1-2) instead of "does not apply".
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSymbolIndex } from '../../../src/core/analysis/outline';
import { Git } from '../../../src/infra/git/git';
import { TreeSitterParser } from '../../../src/infra/treesitter/parser';
import { annotateStep } from '../../../src/app/analysis/annotateStep';
import { fileVersion } from '../../../src/app/fileVersions/fileVersion';
import type { ChainRunSnapshot } from '../../../src/app/run/snapshot';
import type { StepState } from '../../../src/protocol/run';
import { ROOT } from '../../helpers/demoRepo';

const PARSE = 'invoicekit/parse.py';
const patch = (k: number, name: string) =>
  readFileSync(join(ROOT, 'demo', 'steps', String(k), `${name}.patch`), 'utf8');

describe('Seq step 3 where gold does not apply on the agent’s work', () => {
  let tmp: string;
  let run: ChainRunSnapshot;
  let step3: StepState;
  const symbols = createSymbolIndex(new TreeSitterParser());

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'chainlens-seq3-'));
    const dir = join(tmp, 'repo');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: dir,
        encoding: 'utf8',
      }).trim();
    const base = execFileSync('bash', [join(ROOT, 'scripts', 'build-demo-repo.sh'), dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const ends: string[] = [];
    for (const k of [1, 2, 3]) {
      git('apply', join(ROOT, 'demo', 'steps', String(k), 'predicted.patch'));
      git('commit', '-qam', `demo agent step ${k}`);
      ends.push(git('rev-parse', 'HEAD'));
    }
    const state = (order: number, start: string, end: string): StepState => ({
      order,
      instanceId: `i-${order}`,
      author: { kind: 'human' },
      status: 'submitted',
      start,
      end,
      startedAt: null,
      submittedAt: null,
      elapsedMs: null,
      patch: null,
      note: null,
    });
    const steps = [state(1, base, ends[0]), state(2, ends[0], ends[1]), state(3, ends[1], ends[2])];
    step3 = steps[2];
    run = {
      dir,
      state: { runId: 'seq-1', currentStep: null, steps },
      chain: {
        id: 'demo',
        baseCommit: base,
        steps: [1, 2, 3].map((k) => ({
          order: k,
          instanceId: `i-${k}`,
          goldPatch: patch(k, 'gold'),
          testPatch: patch(k, 'test'),
        })),
      },
      workspace: { git: new Git(dir) },
    } as unknown as ChainRunSnapshot;
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('suggests drift against gold on the Oracle state, and says so', async () => {
    const a = await annotateStep(run, step3, { dirty: new Map(), symbols });
    assert.deepEqual(a.goldOnOracle, [PARSE]);
    const coverage = a.analysis.coverage.find((c) => c.file === PARSE);
    assert.equal(coverage?.level, 'symbol', JSON.stringify(coverage));
    const suggested = a.analysis.drift.filter((d) => d.file === PARSE && d.primary).map((d) => d.symbol);
    assert.ok(suggested.includes('parse_amount'), JSON.stringify(suggested));
  });

  it('opens gold’s version of the file (Compare with gold) instead of "does not apply"', async () => {
    const v = await fileVersion(run, 3, 'gold', PARSE);
    assert.ok('text' in v, JSON.stringify(v));
    // gold's step 3 reads the delimiter's decimal mark (demo/steps/3/gold.patch)
    const section = patch(3, 'gold')
      .split(/^(?=diff --git )/m)
      .find((d) => d.startsWith(`diff --git a/${PARSE} `));
    const added = (section ?? '')
      .split('\n')
      .filter((l) => l.startsWith('+') && !l.startsWith('+++') && l.trim().length > 8)
      .map((l) => l.slice(1));
    assert.ok(added.length > 0);
    for (const line of added.slice(0, 3)) assert.ok(v.text.includes(line), line);
  });
});
