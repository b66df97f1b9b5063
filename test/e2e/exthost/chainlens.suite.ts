// Runs inside the extension host of a real VS Code (see test/e2e/harness/README.md): ChainLens
// through the VS Code API and its exported services, on a fresh demo work tree.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suite, suiteSetup, test, waitFor as waitForProbe } from '../harness/exthost/suite';
import type { ChainLensApi } from '../../../src/extension';
import type { ChainLensServices } from '../../../src/vscode/services';

const ID = 'chainlens.chainlens';
let api: ChainLensApi;
let services: ChainLensServices;
let folder: string;

const waitFor = <T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> =>
  waitForProbe(what, probe, timeoutMs);

suite('ChainLens through the VS Code API', () => {
  suiteSetup(async () => {
    const extension = vscode.extensions.getExtension<ChainLensApi>(ID);
    assert.ok(extension, `${ID} is not installed`);
    api = await extension.activate();
    await api.ready;
    services = api.services;
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
  });

  test('activates without a run and registers every command it contributes', async () => {
    assert.equal(services.run, undefined, 'the fresh demo repository has no run yet');
    const contributed = (
      vscode.extensions.getExtension(ID)!.packageJSON.contributes.commands as { command: string }[]
    ).map((c) => c.command);
    const all = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((c) => !all.has(c)),
      [],
    );
  });

  test('a broken chain file: nothing starts, its problems are in the Problems panel at their lines', async () => {
    const broken = vscode.Uri.file(join(folder, 'broken.chain.json'));
    await vscode.commands.executeCommand('chainlens.openChain', broken, {
      repository: 'workspace',
      mode: 'seq',
      authors: 'human,human,human',
    });
    const diagnostics = await waitFor('diagnostics on broken.chain.json', () => {
      const d = vscode.languages.getDiagnostics(broken);
      return d.length ? d : undefined;
    });
    const order = diagnostics.find((d) => d.message.startsWith('$.bug_fixes[1].order'));
    assert.ok(order, diagnostics.map((d) => d.message).join('\n'));
    const text = readFileSync(broken.fsPath, 'utf8').split('\n');
    assert.match(text[order.range.start.line], /"order": "two"/);
    assert.equal(order.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(order.source, 'ChainLens');
    assert.equal(services.run, undefined);
  });

  test('opens the demo chain with every choice passed as options: Seq run at step 1', async () => {
    const changes: (number | null)[] = [];
    const listener = services.onDidChangeRun((run) => changes.push(run?.state.currentStep ?? null));
    await vscode.commands.executeCommand(
      'chainlens.openChain',
      vscode.Uri.file(join(folder, 'invoicekit.chain.json')),
      { repository: 'workspace', mode: 'seq', authors: 'human,human,human' },
    );
    listener.dispose();
    const run = services.run;
    assert.ok(run, 'a run is open');
    assert.equal(run.dir, folder);
    assert.equal(run.chain.id, 'chainlens-demo_invoicekit_20240312');
    assert.deepEqual(
      [run.state.mode, run.state.currentStep, run.state.steps.map((s) => s.status)],
      ['seq', 1, ['current', 'pending', 'pending']],
    );
    assert.deepEqual(changes, [1], 'onDidChangeRun fired once');
    assert.equal(vscode.languages.getDiagnostics(vscode.Uri.file(join(folder, 'invoicekit.chain.json'))).length, 0);
  }, 30_000);

  test('shows the problem statement of the current step in a webview panel', async () => {
    await vscode.commands.executeCommand('chainlens.showProblemStatement');
    const tab = await waitFor('the problem statement tab', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find(
          (t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('chainlens.problemStatement'),
        ),
    );
    assert.equal(tab.label, 'Step 1: Problem');
  });

  test("Compare Step with Gold opens the changes view beside the problem statement: gold's parse.py against the work tree's", async () => {
    const statementGroup = vscode.window.tabGroups.all.find((g) =>
      g.tabs.some(
        (t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('chainlens.problemStatement'),
      ),
    );
    assert.ok(statementGroup, 'the problem statement is open');
    // The person's own step 1: its gold is withheld until they reveal it (or submit).
    assert.equal(api.services.disclosure.current.withheldGoldStep, 1);
    await vscode.commands.executeCommand('chainlens.revealGold');
    assert.equal(api.services.disclosure.current.withheldGoldStep, null, 'revealed, remembered for the step');
    await vscode.commands.executeCommand('chainlens.compareWithGold');
    const tab = await waitFor('the changes tab', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.startsWith('Step 1: gold ↔ your work')),
    );
    // the multi-file diff editor adds the file count to the title it was given
    assert.equal(tab.label, 'Step 1: gold ↔ your work (1 file)');
    assert.notEqual(tab.group, statementGroup, 'opened beside the statement, not over it');
    // the multi-file diff editor opens each side as a document: gold's parse.py is read-only, the other side the file itself
    const gold = await waitFor("gold's version of parse.py", () =>
      vscode.workspace.textDocuments.find(
        (d) =>
          d.uri.scheme === 'chainlens' &&
          d.uri.path.includes(`/version/${api.services.run!.state.runId}/step-1/gold/invoicekit/parse.py`),
      ),
    );
    assert.match(gold.getText(), /Accounting style for credits/);
    assert.equal(readFileSync(join(folder, 'invoicekit', 'parse.py'), 'utf8').includes('Accounting style'), false);
    await vscode.window.tabGroups.close(tab);
  });

  test('evaluates the untouched work tree in a container: unresolved, F2P 0/5, P2P all pass', async () => {
    const started: string[] = [];
    const listener = services.evaluation.onDidStart((f) => started.push(`${f.step}:${f.source}`));
    const evaluation = await services.evaluation.evaluate({ source: 'worktree' });
    listener.dispose();
    assert.deepEqual(started, ['1:worktree']);
    assert.equal(evaluation.status, 'unresolved');
    assert.deepEqual(evaluation.tests_status.FAIL_TO_PASS.success, []);
    assert.equal(evaluation.tests_status.FAIL_TO_PASS.failure.length, 5);
    assert.equal(evaluation.tests_status.PASS_TO_PASS.failure.length, 0);
    assert.equal(services.evaluation.latest(1, 'worktree')?.evaluated_at, evaluation.evaluated_at);
  }, 180_000);

  test('cancelling an evaluation stops it and removes its container', async () => {
    const source = new vscode.CancellationTokenSource();
    const started = new Promise<void>((resolve) => {
      const l = services.evaluation.onDidStart((flight) => {
        l.dispose();
        const logs = flight.onLog(() => {
          logs.dispose();
          source.cancel(); // as soon as the container talks
          resolve();
        });
      });
    });
    const evaluation = services.evaluation.evaluate({ source: 'worktree', token: source.token });
    await started;
    const result = await evaluation;
    assert.equal(result.status, 'error');
    assert.equal(result.error_kind, 'cancelled');
    const left = execFileSync('docker', ['ps', '-aq', '--filter', `label=chainlens.run=${services.run!.state.runId}`], {
      encoding: 'utf8',
    }).trim();
    assert.equal(left, '', 'no container of this run is left');
  }, 180_000);

  test('an unreachable Docker engine (chainlens.docker.host) is an environment error that says what to do', async () => {
    const config = vscode.workspace.getConfiguration('chainlens');
    await config.update('docker.host', 'unix:///nonexistent/chainlens-test.sock', vscode.ConfigurationTarget.Global);
    try {
      const outcome = await services.evaluation.evaluate({ source: 'worktree' }).then(
        (e) => ({ status: e.status, kind: e.error_kind, text: e.error ?? '' }),
        (e: Error) => ({ status: 'thrown', kind: 'thrown', text: e.message }),
      );
      assert.match(outcome.text, /nonexistent\/chainlens-test\.sock/);
      const { evaluationErrorHeadline } = await import('../../../src/vscode/evaluation/messages');
      assert.equal(
        evaluationErrorHeadline(outcome.text, outcome.kind as 'environment'),
        'Docker engine not reachable: start Docker or set chainlens.docker.host',
      );
    } finally {
      await config.update('docker.host', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.notEqual(
      process.env.DOCKER_HOST,
      'unix:///nonexistent/chainlens-test.sock',
      'clearing the setting restores the environment',
    );
  }, 60_000);

  test('submits the gold fix: the step is committed and graded resolved, step 2 starts where it ended', async () => {
    const patchFile = join(mkdtempSync(join(tmpdir(), 'chainlens-gold-')), 'gold.patch');
    writeFileSync(patchFile, services.run!.chain.steps[0].goldPatch);
    execFileSync('git', ['apply', patchFile], { cwd: folder });
    const evaluated = new Promise<void>((resolve) => {
      const l = services.evaluation.onDidEvaluate((e) => {
        if (e.order === 1 && e.source === 'submitted') {
          l.dispose();
          resolve();
        }
      });
    });
    await vscode.commands.executeCommand('chainlens.submitStep', undefined, { confirm: false });
    await evaluated;
    const run = services.run!;
    assert.deepEqual([run.state.currentStep, run.state.steps[0].status], [2, 'submitted']);
    assert.deepEqual(run.state.steps[0].patch, { files: 1, insertions: 7, deletions: 1 });
    assert.equal(services.evaluation.latest(1, 'submitted')?.status, 'resolved');
    assert.equal(run.state.steps[1].start, run.state.steps[0].end, 'Seq: step 2 starts at step 1 end');
  }, 180_000);

  test('exports the run report (SWE-bench shape) to a chosen file', async () => {
    const target = vscode.Uri.file(join(mkdtempSync(join(tmpdir(), 'chainlens-report-')), 'report.json'));
    await vscode.commands.executeCommand('chainlens.exportRunReport', target);
    const report = JSON.parse(readFileSync(target.fsPath, 'utf8'));
    assert.equal(report.chain_id, 'chainlens-demo_invoicekit_20240312');
    assert.equal(report.mode, 'seq');
    assert.deepEqual(
      report.steps.map((s: { order: number; status: string }) => [s.order, s.status]),
      [[1, 'resolved']],
    );
    assert.equal(report.resolved_steps, 1);
  });

  test('switches to Oracle: a new run at step 1, the Seq run kept', async () => {
    const seqRun = services.run!.state.runId;
    await vscode.commands.executeCommand('chainlens.switchMode', 'oracle');
    const run = services.run!;
    assert.equal(run.state.mode, 'oracle');
    assert.notEqual(run.state.runId, seqRun);
    assert.equal(run.state.currentStep, 1);
    assert.ok(run.workspace.store.loadRun(seqRun), 'the Seq run is still on disk');
  }, 30_000);
});
