// run_tests for an attached agent against the real Docker engine: a scripted agent on the real
// MCP client (stdio, the bundled `chainlens mcp`) gets what the run's feedback level allows:
// `summary` = resolved + counts (no test names), `full` = every test's status. The logs that name
// the hidden tests stay out of the agent's work tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { builtCli } from '../helpers/builtCli';
import { runCli } from '../helpers/cli';
import { DEMO_CHAIN, demoRepo, ROOT } from '../helpers/demoRepo';
import { exploreAsSolver, leaked } from '../helpers/solverShell';

async function agentCall(dir: string, feedback: string | null, name: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [builtCli(), 'mcp', '--dir', dir, '--agent-name', 'tester', ...(feedback ? ['--feedback', feedback] : [])],
    // The SDK passes only a few variables by default; the server must find the same data directory.
    env: process.env as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'tester', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = (await client.callTool({ name, arguments: {} }, undefined, { timeout: 600_000 })) as {
      content: { text: string }[];
      isError?: boolean;
    };
    return { text: r.content.map((c) => c.text).join(''), isError: r.isError === true };
  } finally {
    await client.close();
  }
}

test('run_tests: summary before and after the fix (counts, no names), full lists every test; the setting persists in the run', async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-agent-feedback-'));
  const dir = join(root, 'work');
  try {
    assert.equal((await runCli(['checkout', DEMO_CHAIN, '--repo', demoRepo(), '--dir', dir])).code, 0);
    const f2p = (JSON.parse(readFileSync(DEMO_CHAIN, 'utf8')) as { bug_fixes: { FAIL_TO_PASS: string[] }[] })
      .bug_fixes[0].FAIL_TO_PASS;

    const before = await agentCall(dir, 'summary', 'run_tests');
    assert.equal(before.isError, false, before.text);
    const b = JSON.parse(before.text);
    assert.equal(b.resolved, false);
    assert.deepEqual(b.failToPass, { passed: 0, failed: f2p.length });
    assert.equal(b.tests, undefined);
    for (const id of f2p) assert.ok(!before.text.includes(id.split('::')[1]), id);

    const file = join(dir, 'invoicekit/parse.py');
    writeFileSync(
      file,
      applyPatch(readFileSync(file, 'utf8'), readFileSync(join(ROOT, 'demo/steps/1/gold.patch'), 'utf8')) as string,
    );
    // No --feedback this time: the level stored in the run still holds.
    const after = JSON.parse((await agentCall(dir, null, 'run_tests')).text);
    assert.equal(after.resolved, true);
    assert.deepEqual(after.failToPass, { passed: f2p.length, failed: 0 });

    const full = JSON.parse((await agentCall(dir, 'full', 'run_tests')).text);
    for (const id of f2p) assert.equal(full.tests[id], 'PASSED', id);

    assert.match((await agentCall(dir, 'none', 'run_tests')).text, /no test feedback/);
    // Running tests never changes the work tree or the run.
    const status = JSON.parse((await runCli(['status', '--dir', dir, '--json'])).stdout);
    assert.equal(status.run.currentStep, 1);
    // The evaluation logs name every hidden test: they are kept in the state folder, and the agent's
    // shell finds none of them in its work tree or .git.
    const evals = join(status.stateDir, 'runs', status.run.id, 'evals');
    const log = readdirSync(evals)
      .map((d) => readFileSync(join(evals, d, 'run_instance.log'), 'utf8'))
      .join('\n');
    const hidden = f2p.map((id) => id.split('::')[1]);
    for (const name of hidden) assert.ok(log.includes(name), `the log has ${name}`);
    assert.deepEqual(leaked(exploreAsSolver(dir), hidden), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
