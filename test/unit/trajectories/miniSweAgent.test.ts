import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparableDiff, only, parse, read, samples } from './fixtures';

test('mini-swe-agent legacy list: one step per bash block, with return codes', () => {
  const t = only(parse(samples.miniLegacy));
  assert.equal(t.source.format, 'mini-swe-agent');
  assert.equal(t.source.version, 'legacy-list');
  assert.equal(t.steps.length, 10);
  assert.deepEqual(
    t.steps.map((s) => s.actionKind),
    ['view', 'search', 'search', 'view', 'edit', 'view', 'run', 'run', 'edit', 'submit'],
  );
  assert.deepEqual(
    t.steps.map((s) => s.exitCode),
    [1, 0, 0, 0, 0, 0, 0, 1, 0, null],
  );
  assert.equal(t.steps[3].action, 'cat tests/missing_colon.py');
  assert.match(t.steps[3].thought, /^Great! I found the missing_colon.py file/);
  assert.match(t.problemStatement ?? '', /^GitHub Issue: SyntaxError: invalid syntax/);
  // the heredoc rewrites a file the run had already shown: an edit, not a creation
  assert.match(t.steps[8].actionKindReason, /rewrites tests\/missing_colon.py/);
});

test('mini-swe-agent legacy: the final output after the submit marker is the submission', () => {
  const t = only(parse(samples.miniLegacy));
  assert.equal(t.exitStatus, 'Submitted');
  assert.match(t.submission ?? '', /^diff --git a\/tests\/missing_colon.py b\/tests\/missing_colon.py\n/);
  assert.equal(t.steps[9].patchSoFar?.origin, 'recorded');
});

test('mini-swe-agent legacy: cat + sed -i + heredoc replay to exactly the submitted diff', () => {
  const t = only(parse(samples.miniLegacy));
  // after `sed -i 's/.../...:/'`: the colon fix alone, all lines known from the earlier `cat`
  const afterSed = t.steps[4].patchSoFar!;
  assert.equal(afterSed.complete, true);
  assert.match(
    afterSed.text,
    /^-def division\(a: float, b: float\) -> float\n\+def division\(a: float, b: float\) -> float:\n/m,
  );
  assert.deepEqual(t.steps[4].filesTouched, [{ path: 'tests/missing_colon.py', access: 'edit', ranges: [] }]);
  // after the heredoc rewrite: the submitted diff, trailing blank line removal included
  assert.equal(comparableDiff(t.steps[8].patchSoFar!.text), comparableDiff(t.submission!));
});

test('mini-swe-agent preds.json: one submission per instance, no steps', () => {
  const file = parse(samples.miniPreds);
  assert.equal(file.format, 'predictions');
  const t = only(file);
  assert.equal(t.instanceId, 'swe-agent__test-repo-1');
  assert.equal(t.model, 'anthropic/claude-sonnet-4-20250514');
  const raw = JSON.parse(read(samples.miniPreds)) as Record<string, { model_patch: string }>;
  assert.equal(t.submission, raw['swe-agent__test-repo-1'].model_patch);
  assert.deepEqual(t.steps, []);
});

/** The legacy run rewritten in the 1.1 format mini-swe-agent 2.x saves (its documentation's page on output files). */
function asFormat11(): string {
  const legacy = JSON.parse(read(samples.miniLegacy)) as { role: string; content: string }[];
  const messages: unknown[] = [];
  let t = 1706000000;
  for (const m of legacy) {
    const fenced = /```mswea_bash_command\n([\s\S]*?)\n```/.exec(m.content);
    if (m.role === 'assistant' && fenced)
      messages.push({ ...m, extra: { actions: [{ command: fenced[1] }], cost: 0.003, timestamp: t++ } });
    else if (m.role === 'user' && m.content.startsWith('<returncode>')) {
      const rc = Number(/<returncode>(\d+)/.exec(m.content)![1]);
      messages.push({
        ...m,
        extra: { raw_output: /<output>\n([\s\S]*?)<\/output>/.exec(m.content)![1], returncode: rc, timestamp: t++ },
      });
    } else if (m.role === 'user' && m.content.startsWith('diff --git')) {
      messages.push({ role: 'exit', content: m.content, extra: { exit_status: 'Submitted', submission: m.content } });
    } else messages.push(m);
  }
  const info = {
    model_stats: { instance_cost: 0.0421, api_calls: 10 },
    config: {
      model: { model_name: 'anthropic/claude-sonnet-4-5-20250929' },
      environment: { cwd: '/testbed', image: 'swebench/sweb.eval.x86_64.swe-agent_1776_test-repo-1:latest' },
    },
    mini_version: '2.0.0',
    exit_status: 'Submitted',
    submission: legacy[legacy.length - 1].content,
  };
  return JSON.stringify({ info, messages, trajectory_format: 'mini-swe-agent-1.1' }, null, 2);
}

test('mini-swe-agent 1.1: extra.actions, info and the exit message', () => {
  const t = only(parse('swe-agent__test-repo-1.traj.json', asFormat11()));
  assert.equal(t.source.version, '1.1');
  assert.equal(t.model, 'anthropic/claude-sonnet-4-5-20250929');
  assert.equal(t.image, 'swebench/sweb.eval.x86_64.swe-agent_1776_test-repo-1:latest');
  assert.equal(t.workspaceRoot, '/testbed');
  assert.equal(t.exitStatus, 'Submitted');
  assert.equal(t.modelStats?.costUsd, 0.0421);
  assert.equal(t.steps.length, 10);
  assert.equal(t.steps[0].timestamp, new Date(1706000000 * 1000).toISOString());
  assert.equal(t.steps[9].actionKind, 'submit');
  assert.equal(t.steps[9].patchSoFar?.origin, 'recorded');
  assert.equal(comparableDiff(t.steps[8].patchSoFar!.text), comparableDiff(t.submission!));
});

test('mini-swe-agent 1.1 with tool calls: observations found by tool_call_id', () => {
  const doc = {
    info: { exit_status: 'LimitsExceeded', submission: '', model_stats: { instance_cost: 0.01, api_calls: 1 } },
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Please solve this issue: fix it' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'bash', arguments: '{"command": "ls src"}' } },
          {
            id: 'call_b',
            type: 'function',
            function: { name: 'bash', arguments: '{"command": "python -m pytest -q"}' },
          },
        ],
        extra: {
          actions: [
            { command: 'ls src', tool_call_id: 'call_a' },
            { command: 'python -m pytest -q', tool_call_id: 'call_b' },
          ],
        },
      },
      {
        role: 'tool',
        tool_call_id: 'call_b',
        content: '{"returncode": 1, "output": "1 failed"}',
        extra: { returncode: 1, raw_output: '1 failed' },
      },
      {
        role: 'tool',
        tool_call_id: 'call_a',
        content: '{"returncode": 0, "output": "app.py"}',
        extra: { returncode: 0, raw_output: 'app.py' },
      },
      { role: 'exit', content: 'LimitsExceeded', extra: { exit_status: 'LimitsExceeded', submission: '' } },
    ],
    trajectory_format: 'mini-swe-agent-1.1',
  };
  const t = only(parse('run.traj.json', JSON.stringify(doc)));
  assert.deepEqual(
    t.steps.map((s) => [s.action, s.actionKind, s.exitCode, s.tool?.id]),
    [
      ['ls src', 'search', 0, 'call_a'],
      ['python -m pytest -q', 'test', 1, 'call_b'],
    ],
  );
  assert.match(t.steps[0].observation, /app\.py/);
  assert.equal(t.exitStatus, 'LimitsExceeded');
  assert.equal(t.submission, '');
});
