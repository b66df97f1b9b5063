// The versions "Compare Symbol with Gold" and "Open Gold, Recorded and Working" show, on the real
// demo repository (real git, the run store on disk): step 1 of the demo chain, with the demo
// agent's recorded (undershooting) patch kept with the run.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunStore } from '../../../src/infra/run/store';
import { fileVersion, recordedPatchOf } from '../../../src/app/fileVersions/fileVersion';
import type { ChainRunSnapshot } from '../../../src/app/run/snapshot';
import { demoRepoAfterRecordedStep1 } from '../../helpers/demoRepo';
import type { StepState } from '../../../src/protocol/run';

const root = join(__dirname, '..', '..', '..');
const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim();
const FILE = 'invoicekit/parse.py';

describe('file versions of a step (base, gold, recorded, submitted, working)', () => {
  let repo: ReturnType<typeof demoRepoAfterRecordedStep1>;
  let dir: string;
  let base: string;
  let end: string;
  let store: RunStore;
  const gold = readFileSync(join(root, 'demo', 'steps', '1', 'gold.patch'), 'utf8');
  const predicted = readFileSync(join(root, 'demo', 'steps', '1', 'predicted.patch'), 'utf8');

  before(() => {
    repo = demoRepoAfterRecordedStep1();
    ({ dir, base, end } = repo);
    store = new RunStore(join(dir, '.git'), dir);
    store.saveRecorded('r1', { 'i-101': predicted, 'i-102': null });
  });
  after(() => repo.remove());

  const step = (order: number, instanceId: string, start: string | null, e: string | null): StepState => ({
    order,
    instanceId,
    author: { kind: 'human' },
    status: e ? 'submitted' : start ? 'current' : 'pending',
    start,
    end: e,
    startedAt: null,
    submittedAt: null,
    elapsedMs: null,
    patch: null,
    note: null,
  });
  const run = (steps: StepState[], goldPatches: string[], runId = 'r1'): ChainRunSnapshot =>
    ({
      dir,
      state: { runId, currentStep: null, steps },
      chain: { id: 'demo', steps: goldPatches.map((goldPatch) => ({ goldPatch })) },
      workspace: { store },
    }) as unknown as ChainRunSnapshot;

  it("gold: the start with the gold patch applied; recorded: with the agent's patch; submitted: the step's end", async () => {
    const r = run([step(1, 'i-101', base, end)], [gold]);
    const atBase = git(dir, 'show', `${base}:${FILE}`);
    const g = await fileVersion(r, 1, 'gold', FILE);
    const rec = await fileVersion(r, 1, 'recorded', FILE);
    const sub = await fileVersion(r, 1, 'submitted', FILE);
    assert.ok('text' in g && 'text' in rec && 'text' in sub);
    assert.match(g.text, /cleaned\.startswith\("\("\) and cleaned\.endswith\("\)"\)/);
    assert.notEqual(g.text, atBase);
    assert.equal(rec.text, git(dir, 'show', `${end}:${FILE}`) + '\n');
    assert.equal(sub.text, rec.text, 'the submitted step is the recorded patch here');
    assert.notEqual(rec.text, g.text);
  });

  it("a file neither patch touches is the start's text in every version", async () => {
    const r = run([step(1, 'i-101', base, end)], [gold]);
    const g = await fileVersion(r, 1, 'gold', 'README.md');
    assert.ok('text' in g);
    assert.equal(g.text, git(dir, 'show', `${base}:README.md`) + '\n');
  });

  it("base: the step's start; working: the work tree now; a file absent there is marked absent", async () => {
    const r = run([step(1, 'i-101', base, end)], [gold]);
    const b = await fileVersion(r, 1, 'base', FILE);
    assert.ok('text' in b);
    assert.equal(b.text, git(dir, 'show', `${base}:${FILE}`) + '\n');
    const w = await fileVersion(r, 1, 'working', FILE);
    assert.ok('text' in w);
    assert.equal(w.text, readFileSync(join(dir, FILE), 'utf8'));
    assert.deepEqual(await fileVersion(r, 1, 'base', 'no/such.py'), {
      missing: "no/such.py does not exist at step 1's start.",
      absent: true,
    });
    assert.equal(((await fileVersion(r, 1, 'working', '../outside')) as { absent?: boolean }).absent, undefined);
  });

  it('says why a version is missing: no recorded patch, an empty one, not started, not submitted, a patch that does not apply', async () => {
    const r = run(
      [step(1, 'i-999', base, null), step(2, 'i-102', base, null), step(3, 'i-101', null, null)],
      [gold, gold, gold],
    );
    assert.equal(recordedPatchOf(r, 1), undefined);
    assert.match(JSON.stringify(await fileVersion(r, 1, 'recorded', FILE)), /holds no recorded patch for i-999/);
    assert.match(JSON.stringify(await fileVersion(r, 2, 'recorded', FILE)), /produced no patch for i-102/);
    assert.match(JSON.stringify(await fileVersion(r, 3, 'gold', FILE)), /has not started yet/);
    assert.match(JSON.stringify(await fileVersion(r, 1, 'submitted', FILE)), /has not been submitted yet/);
    // Gold of step 1 again on top of its own result: the removed lines are gone.
    const twice = run(
      [step(1, 'i-101', end, null)],
      [readFileSync(join(root, 'demo', 'steps', '1', 'predicted.patch'), 'utf8')],
    );
    assert.match(JSON.stringify(await fileVersion(twice, 1, 'gold', FILE)), /does not apply at step 1's start/);
  });
});
