// One "Problem Statement" panel, reused for whichever step is shown (like the markdown preview):
// it follows the run (a submit moves it to the next step) and the latest test results, survives
// a window reload (serializer), and only acts on validated messages after its ready handshake.
import * as vscode from 'vscode';
import { authorLabel } from '../../core/run/plan';
import {
  FromProblemViewSchema,
  type FromProblemView,
  type ProblemStepView,
  type ToProblemView,
} from '../../protocol/problemStatementView';
import { presentStep } from '../chainView/stepPresentation';
import { isStepArg } from '../commandArgs';
import { errorMessage, guarded } from '../errors';
import { shownSummary } from '../evaluation/messages';
import type { ChainLensServices } from '../services';
import { hostWebview, type HostedView } from '../webviewHost';

const VIEW_TYPE = 'chainlens.problemStatement';

class ProblemStatementPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private host: HostedView<ToProblemView> | undefined;
  private inFlight = 0;
  /** The step shown; undefined follows the current step. */
  private order: number | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly services: ChainLensServices) {
    this.disposables.push(
      services.onDidChangeRun(() => this.refresh()),
      services.evaluation.onDidEvaluate(() => this.refresh()),
      services.evaluation.onDidStart((flight) => {
        this.inFlight++;
        this.post({ type: 'busy', busy: true });
        void flight.result.catch(() => undefined).finally(() => this.post({ type: 'busy', busy: --this.inFlight > 0 }));
      }),
    );
  }

  show(order: number | undefined, preserveFocus = false): void {
    this.order = order;
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(
        VIEW_TYPE,
        'Problem Statement',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
        this.options(),
      );
      this.attach(panel);
    } else {
      this.panel.reveal(undefined, preserveFocus);
    }
    this.refresh();
  }

  /** Takes over a panel VS Code restored after a reload. */
  restore(panel: vscode.WebviewPanel, order: number | undefined): void {
    this.panel?.dispose();
    this.order = order;
    this.attach(panel);
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      retainContextWhenHidden: false,
    };
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.services.context.extensionUri, 'media', 'problem-light.svg'),
      dark: vscode.Uri.joinPath(this.services.context.extensionUri, 'media', 'problem-dark.svg'),
    };
    this.host = hostWebview<FromProblemView, ToProblemView>(panel, {
      extensionUri: this.services.context.extensionUri,
      view: 'problem',
      title: 'Problem Statement',
      stylesheet: 'problemStatement.css',
      schema: FromProblemViewSchema,
      output: this.services.output,
      onReady: () => {
        this.refresh();
        this.post({ type: 'busy', busy: this.inFlight > 0 });
      },
      onMessage: (message) => this.act(message),
    });
    panel.onDidDispose(() => {
      if (this.panel === panel) {
        this.panel = undefined;
        this.host = undefined;
      }
    });
  }

  private act(message: Extract<FromProblemView, { type: 'action' }>): void {
    const arg = { kind: 'step', order: message.order };
    const command = {
      runTests: 'chainlens.runStepTests',
      submit: 'chainlens.submitStep',
      compareWithGold: 'chainlens.compareWithGold',
    }[message.action];
    void vscode.commands
      .executeCommand(command, arg)
      .then(undefined, (e) => this.services.output.error(errorMessage(e)));
  }

  private post(message: ToProblemView): void {
    this.host?.post(message);
  }

  private refresh(): void {
    if (!this.panel) return;
    const view = this.view();
    if (!view) {
      this.panel.title = 'Problem Statement';
      return;
    }
    this.panel.title = `Step ${view.order}: Problem`;
    this.post({ type: 'show', step: view });
  }

  private view(): ProblemStepView | undefined {
    const run = this.services.run;
    if (!run) return undefined;
    const { state, chain } = run;
    const order = this.order ?? state.currentStep ?? state.steps[state.steps.length - 1].order;
    const index = state.steps.findIndex((s) => s.order === order);
    if (index < 0) return undefined;
    const step = state.steps[index];
    const chainStep = chain.steps[index];
    const submitted = this.services.evaluation.latest(order, 'submitted');
    const worktree = step.status === 'current' ? this.services.evaluation.latest(order, 'worktree') : undefined;
    const look = presentStep(step, { submitted, worktree }, Date.now());
    const latest = step.status === 'current' ? worktree : submitted;
    const human = step.author.kind === 'human' || step.author.kind === 'agent-live';
    return {
      chainId: chain.id,
      runId: state.runId,
      mode: state.mode,
      order,
      total: chain.steps.length,
      instanceId: step.instanceId,
      statusText: look.statusText,
      status: look.status,
      author: authorLabel(step.author),
      markdown: chainStep.problemStatement,
      hints: chainStep.hints || undefined,
      tests: latest ? shownSummary(this.services.disclosure.current, latest) : undefined,
      canRunTests: step.status === 'current' || step.status === 'submitted',
      canSubmit: step.status === 'current' && human,
      canCompare: step.status !== 'pending',
    };
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

export function registerProblemStatement(context: vscode.ExtensionContext, services: ChainLensServices): void {
  const panel = new ProblemStatementPanel(services);
  context.subscriptions.push(
    panel,
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(webviewPanel, state: unknown) {
        const order = (state as { step?: ProblemStepView } | undefined)?.step?.order;
        panel.restore(webviewPanel, order);
      },
    }),
    vscode.commands.registerCommand(
      'chainlens.showProblemStatement',
      guarded(services.output, 'Show Problem Statement', async (arg?: unknown) => {
        if (!services.run) throw new Error('No chain is open.');
        panel.show(isStepArg(arg) ? arg.order : undefined);
      }),
    ),
  );
}
