// Every exit of a study run goes through the one disclosure policy (docs/study.md "Blind
// solving"): the CLI shows a headless participant the problem statement; an agent cannot be
// attached to a participant's step (by `chainlens mcp` or Hand Step to Agent) and never gets more
// test feedback than the study allows; researcher commands are refused in a participant's work
// tree; a withdrawn participant's open window writes nothing back; Submit's grading is no test run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { DEMO_PREDICTIONS, ROOT, demoRepo } from '../../helpers/demoRepo';
import { isTestRunOf, StepTimer } from '../../../src/app/study/session';
import { AgentSession } from '../../../src/app/agent/session';
import { handStepToAgent } from '../../../src/infra/agent/handover';
import { openWorkspace } from '../../../src/infra/run/workspace';
import { StudyRunRecords } from '../../../src/infra/study/runRecords';

const dir = mkdtempSync(join(tmpdir(), 'chainlens-study-blind-'));
const file = join(dir, 'study.json');
const chain = join(ROOT, 'demo/chain.jsonl');
writeFileSync(
  file,
  JSON.stringify({
    chainlensStudy: 1,
    name: 'blind-exits',
    tasks: [
      {
        id: 'inv',
        chain,
        chainId: 'chainlens-demo_invoicekit_20240312_two_step',
        repo: demoRepo(),
        predictions: DEMO_PREDICTIONS,
      },
    ],
    conditions: [
      { name: 'AH', authors: ['recorded', 'human'] },
      { name: 'HA', authors: ['human', 'agent'] },
    ],
    participants: ['p01', 'p02'],
    assignment: {
      kind: 'explicit',
      sessions: { p01: [{ task: 'inv', condition: 'AH' }], p02: [{ task: 'inv', condition: 'HA' }] },
    },
    feedback: 'none',
  }),
);
const p01 = join(dir, 'sessions', 'p01', 'inv');
const p02 = join(dir, 'sessions', 'p02', 'inv');
const statementOf = (step: number): string =>
  (JSON.parse(readFileSync(chain, 'utf8').split('\n')[1]) as { bug_fixes: { problem_statement: string }[] }).bug_fixes[
    step - 1
  ].problem_statement;

test('a headless participant is shown the problem statement of the step they solve', async () => {
  const r = await runCli(['study', 'start', file, '--participant', 'p01']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(statementOf(2).trim().split('\n')[0]), r.stdout);
  assert.ok(!r.stdout.includes(statementOf(1).trim().split('\n')[0]), "not the agent's step");
});

test("`chainlens mcp --feedback full` on a participant's step is refused, and the step stays theirs", async () => {
  const r = await runCli(['mcp', '--dir', p01, '--feedback', 'full']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /step 2 is a study participant's to solve: no agent can be attached to it/);
  await assert.rejects(handStepToAgent(p01, 'helper'), /no agent can be attached/);
  const ws = await openWorkspace(p01);
  const { state } = await ws.engine.open();
  assert.deepEqual(state.steps[1].author, { kind: 'human', name: 'p01' });
});

test("researcher commands are refused in a participant's work tree (their terminal)", async () => {
  for (const verb of [
    ['export', '--out', join(dir, 'x')],
    ['report'],
    ['validate'],
    ['pack', '--out', join(dir, 'y')],
  ]) {
    const r = await runCli(['study', verb[0], file, ...verb.slice(1)], p01);
    assert.equal(r.code, 1, `${verb[0]}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`study ${verb[0]} is for the researcher`));
  }
  assert.equal(existsSync(join(dir, 'x')), false, 'nothing written');
  const outside = await runCli(['study', 'validate', file], dir);
  assert.equal(outside.code, 0, outside.stderr);
});

test("HA: the agent's step after the person's gets no more test feedback than the study's, whatever it asks", async () => {
  assert.equal((await runCli(['study', 'start', file, '--participant', 'p02'])).code, 0);
  // While p02 solves step 1, no agent either.
  assert.equal((await runCli(['mcp', '--dir', p02, '--feedback', 'full'])).code, 1);
  const s = await runCli(['study', 'submit', file, '--participant', 'p02', '--no-grade']);
  assert.equal(s.code, 0, s.stderr);
  const session = await AgentSession.open({ dir: p02, agent: 'helper', feedback: 'full' });
  const step = await session.call('get_current_step', {});
  assert.equal(step.isError, false, step.text);
  assert.equal((JSON.parse(step.text) as { testFeedback: string }).testFeedback, 'none');
  const tests = await session.call('run_tests', {});
  assert.equal(tests.isError, true);
  assert.match(tests.text, /no test feedback/);
});

test("a withdrawn participant's open window does not write their time record again", async () => {
  const ws = await openWorkspace(p01);
  const { state } = await ws.engine.open();
  const records = new StudyRunRecords(ws.store.root, state.runId);
  let now = Date.now();
  const timer = new StepTimer(records, 2, 120_000, () => now, 0);
  const w = await runCli(['study', 'withdraw', file, '--participant', 'p01']);
  assert.equal(w.code, 0, w.stderr);
  now += 1000;
  timer.activity({ kind: 'edit', file: 'a.py' });
  timer.flush();
  timer.stop();
  assert.equal(existsSync(join(ws.store.root, 'runs', state.runId)), false, 'nothing comes back');
  rmSync(ws.store.root, { recursive: true, force: true });
});

test("the grading at Submit is not a test run of the next step; the person's own run of the step is", () => {
  assert.equal(isTestRunOf({ runId: 'r', step: 1, origin: 'submit' }, 'r', 2), false);
  assert.equal(isTestRunOf({ runId: 'r', step: 2, origin: 'submit' }, 'r', 2), false);
  assert.equal(isTestRunOf({ runId: 'r', step: 2, origin: 'testing' }, 'r', 2), true);
  assert.equal(isTestRunOf({ runId: 'other', step: 2 }, 'r', 2), false);
});
