// A state file's schema check remembered beside it (src/infra/run/checkMemo.ts, docs/run-state.md
// "Checked files"): a file ChainLens wrote is read back without zod, exactly as zod would give it;
// an edited file, a memo of another build's schemas or of another kind of file, and a build
// without a fingerprint all check the file in full, with the same errors as ever. The build's
// fingerprint is set here as esbuild.mjs sets it in every bundle.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { textHash } from '../../../src/core/util/textHash';
import { UserError } from '../../../src/core/util/errors';
import { RunStateSchema } from '../../../src/protocol/run';
import { ChainSchema } from '../../../src/protocol/chain';
import { passedCheck, rememberCheck } from '../../../src/infra/run/checkMemo';
import { openWorkspace } from '../../../src/infra/run/workspace';
import { runCli } from '../../helpers/cli';
import { makeTinyChain, type TinyChain } from '../../helpers/tinyChain';

const global = globalThis as { __CHAINLENS_SCHEMA_FINGERPRINT__?: string };

function useFingerprint(fp: string | undefined): void {
  if (fp === undefined) delete global.__CHAINLENS_SCHEMA_FINGERPRINT__;
  else global.__CHAINLENS_SCHEMA_FINGERPRINT__ = fp;
}

describe('textHash', () => {
  it('tells apart every single-character change, and texts of other lengths', () => {
    const text = '{"runId":"seq-1","steps":[{"order":1,"status":"current"}]}\n';
    const seen = new Set([textHash(text)]);
    for (let i = 0; i < text.length; i++)
      for (const c of ['a', '0', ' ', '"', '\u00e9']) {
        if (text[i] === c) continue;
        const changed = text.slice(0, i) + c + text.slice(i + 1);
        const h = textHash(changed);
        assert.notEqual(h, textHash(text), `position ${i} -> ${c}`);
        seen.add(h);
      }
    assert.notEqual(textHash(text), textHash(text + ' '));
    assert.notEqual(textHash(''), textHash('\0'));
    assert.equal(textHash(text), textHash(String(text)), 'the same text, the same hash');
    assert.match(textHash(text), /^[0-9a-f]{16}$/);
  });
});

describe('remembered schema checks of the state files', () => {
  let c: TinyChain;
  let dir: string;
  beforeEach(async () => {
    useFingerprint('build-a');
    c = makeTinyChain();
    dir = join(c.root, 'work');
    assert.equal((await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir])).code, 0);
  });
  afterEach(() => {
    useFingerprint(undefined);
    c.cleanup();
  });

  async function files() {
    const ws = await openWorkspace(dir);
    const runId = ws.store.currentRunId()!;
    return {
      ws,
      runId,
      run: join(ws.store.root, 'runs', `${runId}.json`),
      chain: join(ws.store.root, 'runs', `${runId}.chain.json`),
    };
  }

  it('a file ChainLens wrote reads back without zod exactly as zod reads it, key order included', async () => {
    const { ws, runId, run, chain } = await files();
    for (const f of [run, chain, join(ws.store.root, 'runs', `${runId}.recorded.json`)])
      assert.ok(existsSync(`${f}.checked`), `${f} has its memo`);
    const runText = readFileSync(run, 'utf8');
    const chainText = readFileSync(chain, 'utf8');
    assert.equal(passedCheck(run, 'run', runText), true);
    assert.equal(passedCheck(chain, 'chain', chainText), true);
    assert.equal(JSON.stringify(ws.store.loadRun(runId)), JSON.stringify(RunStateSchema.parse(JSON.parse(runText))));
    assert.equal(JSON.stringify(ws.store.loadChain(runId)), JSON.stringify(ChainSchema.parse(JSON.parse(chainText))));
  });

  it('an edited file is checked in full: the error names the file and the field, as without a memo', async () => {
    const { ws, runId, run } = await files();
    const state = JSON.parse(readFileSync(run, 'utf8'));
    state.steps[0].status = 'bogus';
    writeFileSync(run, JSON.stringify(state, null, 2) + '\n');
    assert.ok(existsSync(`${run}.checked`), 'the memo is still there');
    assert.throws(
      () => ws.store.loadRun(runId),
      (e: unknown) =>
        e instanceof UserError && e.message.includes(run) && e.details.some((d) => d.includes('$.steps[0].status')),
    );
    const r = await runCli(['status', '--dir', dir]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /steps\[0\]\.status/);
  });

  it("another build's memo, or a memo of another kind of file, is not trusted", async () => {
    const { ws, runId, run, chain } = await files();
    const state = JSON.parse(readFileSync(run, 'utf8'));
    delete state.branch;
    const broken = JSON.stringify(state, null, 2) + '\n';
    writeFileSync(run, broken);
    // A memo of this very (broken) text, as build-b would have written it had it accepted it.
    useFingerprint('build-b');
    rememberCheck(run, 'run', broken, true);
    useFingerprint('build-a');
    assert.throws(() => ws.store.loadRun(runId), /is not a valid run/);
    // The chain copy's memo, moved beside the run's file: it names the chain's schema.
    const chainText = readFileSync(chain, 'utf8');
    writeFileSync(run, chainText);
    renameSync(`${chain}.checked`, `${run}.checked`);
    assert.throws(() => ws.store.loadRun(runId), /is not a valid run/);
    // Proof that the memo is what decides: build-b, under which that broken text "passed", reads it.
    rememberCheck(run, 'run', broken, false);
    writeFileSync(run, broken);
    useFingerprint('build-b');
    rememberCheck(run, 'run', broken, true);
    assert.equal(ws.store.loadRun(runId)?.runId, runId);
  });

  it('a state the schema rejects is written as it is, without a memo, and its next read says what is wrong', async () => {
    const { ws, runId, run } = await files();
    const state = ws.store.loadRun(runId)!;
    ws.store.saveRun({ ...state, currentStep: -1 });
    assert.equal(existsSync(`${run}.checked`), false);
    assert.throws(
      () => ws.store.loadRun(runId),
      (e: unknown) => e instanceof UserError && e.details.some((d) => d.includes('$.currentStep')),
    );
  });

  it('without a fingerprint (unbundled code) no memo is written or trusted', async () => {
    const { ws, runId, run } = await files();
    useFingerprint(undefined);
    const text = readFileSync(run, 'utf8');
    assert.equal(passedCheck(run, 'run', text), false);
    ws.store.saveRun(ws.store.loadRun(runId)!);
    assert.equal(existsSync(`${run}.checked`), false, 'the earlier memo is gone with the rewrite');
  });
});
