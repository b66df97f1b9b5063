import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reconstructWorkspace } from '../../../src/core/trajectories';
import { comparableDiff, only, parse, read, samples } from './fixtures';

const PARSER_C = 'src/libponyc/ast/parser.c';

test('OpenHands output.jsonl (V0 events): one trajectory per line, instance fields read', () => {
  const file = parse(samples.ohV0);
  assert.equal(file.format, 'openhands');
  assert.deepEqual(
    file.trajectories.map((t) => [t.instanceId, t.source.line, t.steps.length]),
    [
      ['ponylang__ponyc-4595', 1, 23],
      ['ponylang__ponyc-4593', 2, 33],
    ],
  );
  const t = file.trajectories[0];
  assert.equal(t.model, 'openai/openrouter-llama-4-maverick');
  assert.equal(t.workspaceRoot, '/workspace/ponylang__ponyc__0.1');
  assert.equal(t.exitStatus, 'finished');
  assert.match(t.problemStatement ?? '', /^ponyc segfaults when trying to match using a single element tuple form/);
  assert.equal(file.trajectories[0].modelStats?.tokensSent, 565158);
});

test('OpenHands V0: observations paired to their action by cause, with exit codes and durations', () => {
  const t = parse(samples.ohV0).trajectories[0];
  const first = t.steps[0];
  assert.equal(first.action, 'ls -l /workspace/ponylang__ponyc__0.1');
  assert.deepEqual(first.tool, {
    name: 'execute_bash',
    args: { command: 'ls -l /workspace/ponylang__ponyc__0.1' },
    id: 'toolu_01',
  });
  assert.match(first.observation, /BUILD\.md/);
  assert.equal(first.exitCode, 0);
  assert.ok(first.executionTimeSec !== null && first.executionTimeSec > 0.5 && first.executionTimeSec < 0.7);
  const make = t.steps.find((s) => s.action === 'cd /workspace/ponylang__ponyc__0.1 && make');
  assert.equal(make?.exitCode, 2);
  assert.equal(make?.actionKind, 'run');
  assert.equal(t.steps.at(-1)?.actionKind, 'submit');
  assert.equal(t.steps.find((s) => s.tool?.name === 'think')?.actionKind, 'think');
});

test('OpenHands V0: the str_replace on parser.c replays to the recorded git_patch', () => {
  const t = parse(samples.ohV0).trajectories[0];
  const failed = t.steps[11];
  assert.equal(failed.actionKind, 'edit');
  assert.match(failed.actionKindReason, /the tool reported an error; nothing changed/);
  const edit = t.steps[13];
  assert.equal(edit.tool?.args.command, 'str_replace');
  assert.deepEqual(edit.filesTouched, [{ path: PARSER_C, access: 'edit', ranges: [{ start: 692, end: 697 }] }]);
  assert.equal(edit.patchSoFar?.complete, true);
  assert.equal(comparableDiff(edit.patchSoFar!.text), comparableDiff(t.submission!));
  // files outside the repository (/workspace/test.c) are not part of its patch
  assert.equal(t.steps[14].patchSoFar?.text, edit.patchSoFar?.text);
  assert.deepEqual(t.steps[14].filesTouched, [{ path: '/workspace/test.c', access: 'create', ranges: [] }]);
});

test('OpenHands V0: an error event without a cause is shown after the step it followed', () => {
  const t = parse(samples.ohV0).trajectories[1];
  const withError = t.steps.filter((s) => s.observation.includes("Parameter 'command' is expected to be one of"));
  assert.equal(withError.length, 1);
  assert.equal(withError[0].index, 11);
});

test('OpenHands SDK (V1) event log: steps from ActionEvent/ObservationEvent pairs', () => {
  const t = only(parse(samples.ohV1));
  assert.equal(t.source.version, 'v1-events');
  assert.equal(t.model, 'litellm_proxy/claude-sonnet-4-5-20250929');
  assert.equal(t.exitStatus, 'finished');
  assert.equal(t.modelStats?.costUsd, 0.0231);
  assert.equal(t.workspaceRoot, '/workspace/project');
  assert.deepEqual(
    t.steps.map((s) => [s.actionKind, s.tool?.name, s.exitCode]),
    [
      ['search', 'terminal', 0],
      ['view', 'file_editor', null],
      ['other', 'file_editor', null],
      ['edit', 'file_editor', null],
      ['create', 'file_editor', null],
      ['test', 'terminal', 0],
      ['submit', 'finish', null],
    ],
  );
  assert.match(t.steps[2].observation, /Error validating args/);
  assert.deepEqual(t.steps[0].filesTouched, [
    { path: 'src/calc/ops.py', access: 'search', ranges: [{ start: 8, end: 8 }] },
  ]);
  assert.deepEqual(t.steps[1].filesTouched, [
    { path: 'src/calc/ops.py', access: 'view', ranges: [{ start: 1, end: 9 }] },
  ]);
  assert.equal(t.steps[0].origin.line, 4);
  assert.match(t.problemStatement ?? '', /mean\(\[\]\)/);
});

/** The file contents the SDK recorded in the str_replace / create observations (old_content, new_content). */
function recordedContents(): { base: string; after: string; test: string } {
  const events = read(samples.ohV1)
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          kind: string;
          observation?: { kind: string; command?: string; old_content?: string; new_content?: string };
        },
    );
  const obs = events
    .filter((e) => e.kind === 'ObservationEvent' && e.observation?.kind === 'FileEditorObservation')
    .map((e) => e.observation!);
  const edit = obs.find((o) => o.command === 'str_replace')!;
  const created = obs.find((o) => o.command === 'create')!;
  return { base: edit.old_content!, after: edit.new_content!, test: created.new_content! };
}

test('OpenHands SDK: the reconstructed patch applies with git and yields the contents the SDK recorded', () => {
  const t = only(parse(samples.ohV1));
  const patch = t.steps[6].patchSoFar!;
  assert.equal(patch.complete, true);
  const { base, after, test: testFile } = recordedContents();
  const repo = mkdtempSync(join(tmpdir(), 'chainlens-traj-'));
  try {
    mkdirSync(join(repo, 'src/calc'), { recursive: true });
    writeFileSync(join(repo, 'src/calc/ops.py'), base);
    execFileSync('git', ['init', '-q'], { cwd: repo });
    writeFileSync(join(repo, 'step.patch'), patch.text);
    execFileSync('git', ['apply', 'step.patch'], { cwd: repo });
    assert.equal(readFileSync(join(repo, 'src/calc/ops.py'), 'utf8'), after);
    assert.equal(readFileSync(join(repo, 'tests/test_mean_empty.py'), 'utf8'), testFile);
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});

test('OpenHands SDK: workspace at step k shows each file as it was then', () => {
  const t = only(parse(samples.ohV1));
  const { base, after } = recordedContents();
  const ws = reconstructWorkspace(t);
  assert.deepEqual(ws.files, ['src/calc/ops.py', 'tests/test_mean_empty.py']);
  // only grep had run at step 0, but the view at step 1 shows what the file held all along
  assert.equal(ws.fileAt('src/calc/ops.py', 0).text, base);
  assert.equal(ws.fileAt('src/calc/ops.py', 1).text, base);
  assert.equal(ws.fileAt('src/calc/ops.py', 3).text, after);
  assert.equal(ws.fileAt('tests/test_mean_empty.py', 3).exists, false);
  assert.equal(ws.fileAt('tests/test_mean_empty.py', 4).exists, true);
});
