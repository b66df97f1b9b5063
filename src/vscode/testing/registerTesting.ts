// The Testing view: one TestController whose "Run in container" profile evaluates steps with
// their hidden tests, streams the container output into the TestRun and marks every F2P/P2P test
// from the graded log. Evaluations started elsewhere (Submit, agent tools) show up here too.
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { isUserError } from '../../core/util/errors';
import type { StepEvaluation } from '../../protocol/evaluation';
import { errorMessage, guarded } from '../errors';
import {
  describeEvaluationProblem,
  evaluationErrorHeadline,
  evaluationSummary,
  gradeOutcome,
} from '../evaluation/messages';
import { gradeText, OPEN } from '../../core/study/disclosure';
import type { ChainLensServices, EvaluationInFlight, EvaluationSource } from '../services';
import { isStepArg } from '../commandArgs';
import { toTerminalText } from '../util/format';
import { assertionOperands, failureExcerpt, failureLine } from './logExcerpt';
import { EXACT_LOCATION, F2P_TAG, P2P_TAG, buildTestTree, type StepTestItems } from './testTree';
import { offerTrust } from '../trust';
import { showOutcome } from './outcomeNotice';

const ORIGIN = 'testing';

class ChainTests implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('chainlens', 'ChainLens');
  private steps = new Map<number, StepTestItems>();
  readonly profile: vscode.TestRunProfile;

  constructor(private readonly services: ChainLensServices) {
    this.profile = this.controller.createRunProfile(
      'Run in container',
      vscode.TestRunProfileKind.Run,
      (request, token) => this.run(request, token),
      true,
      undefined,
      false,
    );
    // "Configure Test Profiles" -> ChainLens's settings (engine, image, time limit, grading profile).
    this.profile.configureHandler = () =>
      void vscode.commands.executeCommand('workbench.action.openSettings', '@ext:chainlens.chainlens');
    this.controller.refreshHandler = async () => {
      await services.runs.reload();
      this.rebuild();
    };
    this.rebuild();
  }

  rebuild(): void {
    this.steps = buildTestTree(this.controller, this.services.run, this.services.disclosure.current.testIds);
  }

  stepEntry(order: number): StepTestItems | undefined {
    return this.steps.get(order);
  }

  /** The steps a request covers: a step item, any of its tests, or the chain (every step). */
  private requestedSteps(request: vscode.TestRunRequest): Map<number, Set<vscode.TestItem> | 'all'> {
    const wanted = new Map<number, Set<vscode.TestItem> | 'all'>();
    const include = request.include ?? [...this.controller.items].map(([, item]) => item);
    for (const item of include) {
      for (const [order, entry] of this.steps) {
        if (item === entry.step || item.children.get(entry.step.id) === entry.step) wanted.set(order, 'all');
        else if ([...entry.tests.values()].includes(item)) {
          const set = wanted.get(order);
          if (set !== 'all') wanted.set(order, (set ?? new Set()).add(item));
        }
      }
    }
    return wanted;
  }

  /** The profile's handler: one evaluation per requested step, in order. */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken, source?: EvaluationSource): Promise<void> {
    const run = this.services.run;
    const testRun = this.controller.createTestRun(request, undefined, true);
    // Stop in the Testing view cancels testRun.token; the profile's own token covers the rest.
    const cancel = new vscode.CancellationTokenSource();
    const links = [
      token.onCancellationRequested(() => cancel.cancel()),
      testRun.token.onCancellationRequested(() => cancel.cancel()),
    ];
    token = cancel.token;
    try {
      if (!run) {
        testRun.appendOutput('No chain is open.\r\n');
        return;
      }
      const disclosure = this.services.disclosure.current;
      if (disclosure.testResults === 'none') {
        testRun.appendOutput(toTerminalText(`No test feedback: ${disclosure.reason ?? 'withheld'}.\n`));
        return;
      }
      for (const [order, which] of this.requestedSteps(request)) {
        if (token.isCancellationRequested) break;
        const entry = this.steps.get(order)!;
        const items = which === 'all' ? [...entry.tests.values()] : [...which];
        const excluded = new Set(request.exclude ?? []);
        const selected = items.filter((i) => !excluded.has(i));
        const state = run.state.steps.find((s) => s.order === order)!;
        const stepSource = source ?? (state.status === 'current' ? 'worktree' : 'submitted');
        if (state.status === 'pending') {
          testRun.appendOutput(`Step ${order} is not reached yet: its tests run once it is the current step.\r\n`);
          for (const item of selected) testRun.skipped(item);
          continue;
        }
        await this.evaluateInto(testRun, entry, selected, order, stepSource, token);
      }
    } finally {
      testRun.end();
      for (const link of links) link.dispose();
      cancel.dispose();
    }
  }

  private async evaluateInto(
    testRun: vscode.TestRun,
    entry: StepTestItems,
    items: vscode.TestItem[],
    order: number,
    source: EvaluationSource,
    token: vscode.CancellationToken,
  ): Promise<void> {
    for (const item of items) testRun.enqueued(item);
    const blocked = this.services.evaluation.blockedReason();
    if (blocked) {
      this.markErrored(testRun, items, blocked);
      testRun.appendOutput(toTerminalText(`${blocked}\n`));
      this.services.output.warn(`step ${order}: ${blocked}`);
      offerTrust(blocked);
      return;
    }
    for (const item of items) testRun.started(item);
    testRun.appendOutput(
      toTerminalText(
        `── step ${order}: ${source === 'worktree' ? 'your work (not submitted)' : 'submitted commit'} ──\n`,
      ),
    );
    // The container's output names the hidden tests: only at the `full` feedback level.
    const streamLog = this.services.disclosure.current.testResults === 'full';
    const subscription = this.services.evaluation.onDidStart((flight) => {
      if (streamLog && flight.origin === ORIGIN && flight.step === order)
        flight.onLog((chunk) => testRun.appendOutput(toTerminalText(chunk), undefined, entry.step));
    });
    let evaluation: StepEvaluation;
    try {
      evaluation = await this.services.evaluation.evaluate({ step: order, source, token, origin: ORIGIN });
    } catch (e) {
      const headline =
        isUserError(e) && e.kind !== 'environment'
          ? errorMessage(e)
          : evaluationErrorHeadline(errorMessage(e), 'thrown');
      this.markErrored(testRun, items, headline === errorMessage(e) ? headline : `${headline}\n\n${errorMessage(e)}`);
      testRun.appendOutput(toTerminalText(`${errorMessage(e)}\n`));
      void vscode.window
        .showErrorMessage(`Step ${order} tests: ${headline}`, 'Show Log')
        .then((c) => c && this.services.output.show(true));
      return;
    } finally {
      subscription.dispose();
    }
    const full = this.services.disclosure.current.testResults === 'full';
    applyEvaluation(testRun, entry, items, evaluation, full);
    // The outcome where the person is looking; at a study's `summary` level, counts only.
    if (evaluation.error_kind !== 'cancelled')
      void showOutcome(evaluation, source, full ? entry : undefined, full, () => readLog(evaluation.log_path));
  }

  /** Mirrors evaluations started elsewhere (Submit, agents) into a TestRun, so results are in one place. */
  mirror(flight: EvaluationInFlight): void {
    if (flight.origin === ORIGIN || flight.runId !== this.services.run?.state.runId) return;
    // A study withholding test feedback: the evaluation (e.g. grading a submission) is not shown.
    if (this.services.disclosure.current.testResults !== 'full') return;
    const entry = this.steps.get(flight.step);
    if (!entry) return;
    const testRun = this.controller.createTestRun(
      new vscode.TestRunRequest([entry.step], undefined, this.profile),
      `Step ${flight.step} (${flight.source})`,
      true,
    );
    const items = [...entry.tests.values()];
    for (const item of items) testRun.started(item);
    const logs = flight.onLog((chunk) => testRun.appendOutput(toTerminalText(chunk), undefined, entry.step));
    const cancel = testRun.token.onCancellationRequested(() => flight.cancel());
    flight.result
      .then(
        (evaluation) => applyEvaluation(testRun, entry, items, evaluation, true),
        (e) => this.markErrored(testRun, items, errorMessage(e)),
      )
      .finally(() => {
        logs.dispose();
        cancel.dispose();
        testRun.end();
      });
  }

  private markErrored(testRun: vscode.TestRun, items: vscode.TestItem[], message: string): void {
    for (const item of items) testRun.errored(item, new vscode.TestMessage(message));
  }

  dispose(): void {
    this.controller.dispose();
  }
}

function readLog(path: string): string {
  try {
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  } catch {
    return '';
  }
}

/** Marks each test from the evaluation's status map; an evaluation without a verdict errors them all. */
function applyEvaluation(
  testRun: vscode.TestRun,
  entry: StepTestItems,
  items: vscode.TestItem[],
  evaluation: StepEvaluation,
  /** False at a study's `summary` feedback level: counts only, no log, no per-test results. */
  full: boolean,
): void {
  testRun.appendOutput(
    toTerminalText(
      full
        ? `\n── step ${evaluation.order}: ${evaluationSummary(evaluation)} (${evaluation.duration_s} s; log ${evaluation.log_path}) ──\n`
        : `\n── step ${evaluation.order}: ${gradeText({ ...OPEN, testResults: 'summary' }, gradeOutcome(evaluation))} ──\n`,
    ),
    undefined,
    entry.step,
  );
  if (!full) return;
  if (evaluation.error_kind === 'cancelled') {
    for (const item of items) testRun.skipped(item);
    return;
  }
  const problem = describeEvaluationProblem(evaluation);
  if (problem) {
    const message = new vscode.TestMessage(
      problem.detail ? `${problem.headline}\n\n${problem.detail}` : problem.headline,
    );
    for (const item of items) testRun.errored(item, message);
    return;
  }
  const log = readLog(evaluation.log_path);
  const idOf = new Map([...entry.tests].map(([id, item]) => [item, id]));
  for (const item of items) {
    const testId = idOf.get(item);
    if (testId === undefined) continue;
    const status = evaluation.status_map[testId];
    const bucket = item.tags.includes(F2P_TAG)
      ? 'FAIL_TO_PASS'
      : item.tags.includes(P2P_TAG)
        ? 'PASS_TO_PASS'
        : undefined;
    const passedByGrade = bucket ? evaluation.tests_status[bucket].success.includes(testId) : status === 'PASSED';
    if (status === 'SKIPPED') testRun.skipped(item);
    else if (passedByGrade) testRun.passed(item);
    else testRun.failed(item, failureMessage(item, testId, status, log, evaluation.log_path));
  }
}

function failureMessage(
  item: vscode.TestItem,
  testId: string,
  status: string | undefined,
  log: string,
  logPath: string,
): vscode.TestMessage {
  const excerpt = failureExcerpt(log, testId);
  const headline = status === undefined ? `${testId} did not run (not found in the test log)` : `${testId}: ${status}`;
  const text = excerpt ? `${headline}\n\n${excerpt}` : headline;
  const operands = excerpt ? assertionOperands(excerpt) : undefined;
  const message = operands
    ? vscode.TestMessage.diff(text, operands.expected, operands.actual)
    : new vscode.TestMessage(text);
  // Where double-clicking the failed test (or "Peek Error") goes: its definition when the work
  // tree has it, else the failure in the step's test log.
  if (item.uri && item.range && EXACT_LOCATION.has(item)) message.location = new vscode.Location(item.uri, item.range);
  else {
    const line = failureLine(log, testId);
    if (line !== undefined)
      message.location = new vscode.Location(vscode.Uri.file(logPath), new vscode.Position(line, 0));
  }
  return message;
}

export function registerTesting(context: vscode.ExtensionContext, services: ChainLensServices): void {
  const tests = new ChainTests(services);
  context.subscriptions.push(
    tests,
    services.onDidChangeRun(() => tests.rebuild()),
    services.disclosure.onDidChange(() => tests.rebuild()),
    services.evaluation.onDidStart((flight) => tests.mirror(flight)),
    vscode.commands.registerCommand(
      'chainlens.runStepTests',
      guarded(services.output, 'Run Step Tests', async (arg?: unknown) => {
        const run = services.runs.current;
        if (!run) throw new Error('No chain is open.');
        const order = isStepArg(arg)
          ? arg.order
          : (run.state.currentStep ?? run.state.steps[run.state.steps.length - 1].order);
        const entry = tests.stepEntry(order);
        if (!entry) throw new Error(`The chain has no step ${order}.`);
        const request = new vscode.TestRunRequest([entry.step], undefined, tests.profile);
        const cancel = new vscode.CancellationTokenSource();
        try {
          await tests.run(request, cancel.token);
        } finally {
          cancel.dispose();
        }
      }),
    ),
  );
}
