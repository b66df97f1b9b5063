// Inside a real VS Code extension host: the ChainLens agent tools are language-model tools that
// vscode.lm.invokeTool can call; an "agent" (this suite) solves step 1 through them and a person
// takes step 2 over (the AH condition), all recorded in the run.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import * as vscode from 'vscode';
import { suite, suiteSetup, test } from '../harness/exthost/suite';
import type { ChainLensApi } from '../../../src/extension';
import type { ChainLensServices } from '../../../src/vscode/services';

let services: ChainLensServices;
let folder: string;
const texts: string[] = [];

async function invoke(name: string, input: Record<string, unknown>): Promise<string> {
  const cts = new vscode.CancellationTokenSource();
  try {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cts.token);
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    texts.push(text);
    return text;
  } finally {
    cts.dispose();
  }
}

suite('ChainLens agent tools (vscode.lm)', () => {
  suiteSetup(async () => {
    const extension = vscode.extensions.getExtension<ChainLensApi>('chainlens.chainlens')!;
    const api = await extension.activate();
    await api.ready;
    services = api.services;
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert.equal(services.run?.state.currentStep, 1, 'the demo workspace was checked out at step 1');
  });

  test('the four tools, and the four of the SWE-CI loop, are registered with their schemas', () => {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('chainlens_'));
    assert.deepEqual(ours.map((t) => t.name).sort(), [
      'chainlens_get_current_step',
      'chainlens_get_run_status',
      'chainlens_run_tests',
      'chainlens_submit_step',
      'chainlens_sweci_get_gap',
      'chainlens_sweci_get_requirement',
      'chainlens_sweci_submit_iteration',
      'chainlens_sweci_write_requirement',
    ]);
    const submit = ours.find((t) => t.name === 'chainlens_submit_step')!;
    assert.deepEqual(Object.keys((submit.inputSchema as { properties: object }).properties).sort(), [
      'allow_empty',
      'step',
      'summary',
    ]);
  });

  test('a SWE-CI tool on a run that is not a SWE-CI task answers an error the model can read', async () => {
    const text = await invoke('chainlens_sweci_get_gap', {});
    assert.match(text, /^Error: the run '.*' in .* is not a SWE-CI run/);
  }, 30_000);

  test('get_current_step answers the problem statement of step 1 and nothing of the answers', async () => {
    const view = JSON.parse(await invoke('chainlens_get_current_step', {}));
    assert.equal(view.step, 1);
    assert.equal(view.repository, folder);
    assert.equal(view.problemStatement, services.run!.chain.steps[0].problemStatement);
    assert.equal(services.run!.state.steps[0].author.kind, 'agent-live');
  }, 30_000);

  test('bad arguments are refused and change nothing; tests are off by default', async () => {
    const head = services.run!.state.updatedAt;
    let answer: string;
    try {
      answer = await invoke('chainlens_submit_step', { step: 'one' });
    } catch (e) {
      answer = (e as Error).message; // VS Code may check the schema itself
    }
    assert.match(answer, /step/);
    assert.equal(services.run!.state.currentStep, 1);
    assert.equal(services.run!.state.updatedAt, head);
    assert.match(await invoke('chainlens_run_tests', {}), /no test feedback/);
  }, 30_000);

  test('the agent edits parse.py and submits: the run moves to step 2, authored agent-live, trajectory recorded', async () => {
    const file = join(folder, 'invoicekit/parse.py');
    const gold = services.run!.chain.steps[0].goldPatch; // the suite plays an agent that knows the fix
    writeFileSync(file, applyPatch(readFileSync(file, 'utf8'), gold) as string);
    const answer = JSON.parse(await invoke('chainlens_submit_step', { step: 1, summary: 'negative amounts' }));
    assert.equal(answer.submitted, 1);
    assert.equal(answer.nextStep, 2);
    assert.equal(services.run!.state.currentStep, 2);
    assert.deepEqual(services.run!.state.steps[0].author, { kind: 'agent-live', agent: 'vscode-agent' });
    const traj = join(
      services.run!.workspace.store.root,
      'runs',
      services.run!.state.runId,
      'agent',
      'step-1.traj.json',
    );
    assert.ok(existsSync(traj));
    const doc = JSON.parse(readFileSync(traj, 'utf8'));
    assert.equal(doc.info.exit_status, 'submitted');
    assert.match(doc.info.submission, /negative, cleaned = True/);
  }, 60_000);

  test('a person takes step 2 over, hands it back, and stops the agent (commands)', async () => {
    await vscode.commands.executeCommand('chainlens.agent.takeOver');
    assert.equal(services.run!.state.steps[1].author.kind, 'human');
    await vscode.commands.executeCommand('chainlens.agent.handStep');
    assert.deepEqual(services.run!.state.steps[1].author, { kind: 'agent-live', agent: 'vscode-agent' });
    await vscode.commands.executeCommand('chainlens.agent.stop');
    assert.equal(services.run!.state.steps[1].author.kind, 'human');
    const refused = await invoke('chainlens_submit_step', {});
    assert.match(refused, /stopped the agent on step 2/);
    assert.equal(services.run!.state.currentStep, 2);
  }, 30_000);

  test('no tool answer contained the gold patch, the test patch or a hidden test name', () => {
    const said = texts.join('\n');
    for (const step of services.run!.chain.steps) {
      for (const id of [...step.failToPass, ...step.passToPass]) assert.ok(!said.includes(id), id);
      for (const line of [...step.goldPatch.split('\n'), ...step.testPatch.split('\n')]) {
        const body = line.slice(1).trim();
        if (/^[+-][^+-]/.test(line) && body.length >= 24 && !step.problemStatement.includes(body))
          assert.ok(!said.includes(body), body);
      }
    }
  });
});
