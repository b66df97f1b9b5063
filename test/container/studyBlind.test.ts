// A headless study session is as blind as the window (issue: `study submit` printed the grade):
// with `feedback: none` the participant's `chainlens study submit` says "submitted and graded"
// only, on stdout and stderr, while the step is really graded in its container (the export has it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { DEMO_CHAIN, DEMO_PREDICTIONS, demoRepo } from '../helpers/demoRepo';

test('study submit with feedback none: graded in its container, and it says only that', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-study-blind-cli-'));
  const file = join(dir, 'study.json');
  writeFileSync(
    file,
    JSON.stringify({
      chainlensStudy: 1,
      name: 'blind-cli',
      tasks: [
        {
          id: 'inv',
          chain: DEMO_CHAIN,
          repo: demoRepo(),
          predictions: DEMO_PREDICTIONS,
        },
      ],
      conditions: [{ name: 'HH', authors: ['human', 'human', 'human'] }],
      participants: ['p01'],
      assignment: { kind: 'explicit', sessions: { p01: [{ task: 'inv', condition: 'HH' }] } },
      feedback: 'none',
      revealAfterSubmission: false,
    }),
  );
  const started = await runCli(['study', 'start', file, '--participant', 'p01']);
  assert.equal(started.code, 0, started.stderr);
  appendFileSync(join(dir, 'sessions', 'p01', 'inv', 'invoicekit', 'parse.py'), '\n# not a fix\n');
  const s = await runCli(['study', 'submit', file, '--participant', 'p01']);
  assert.equal(s.code, 0, s.stderr);
  assert.equal(s.stdout, 'submitted step 1 and graded\n');
  const said = s.stdout + s.stderr;
  assert.doesNotMatch(said, /resolved|F2P|P2P|run_instance\.log|test_output/i);
  const out = join(dir, 'out');
  assert.equal((await runCli(['study', 'export', file, '--out', out])).code, 0);
  const row = JSON.parse(readFileSync(join(out, 'rows.jsonl'), 'utf8').split('\n')[0]) as { resolved: unknown };
  assert.equal(row.resolved, false, 'graded for the researcher');
});
