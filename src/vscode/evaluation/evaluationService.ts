// Every evaluation of the window goes through here: Run Step Tests, Submit, and later agent
// tools. It refuses in Restricted Mode, applies the settings, shows one cancellable progress
// notification, announces the evaluation (the Testing view mirrors each one into a TestRun) and
// keeps the latest result per step and source for the tree, status bar and annotations.
import * as vscode from 'vscode';
import { UserError } from '../../core/util/errors';
import type { ChainEvaluation, StepEvaluation } from '../../protocol/evaluation';
import { EvalStore } from '../../infra/evaluation/evalStore';
import { defaultStepOrder } from '../../app/evaluation/defaultStep';

// dockerode (with ssh2 and grpc) and the grading parsers load on the first evaluation, not at
// activation: they were most of the 1.6 MB bundle's load time.
const loadEvaluator = () => import('../../app/evaluation');
import type {
  ActiveRunService,
  DisclosureService,
  EvaluateOptions,
  EvaluationInFlight,
  EvaluationService,
  EvaluationSource,
} from '../services';
import { errorMessage } from '../errors';
import { RESTRICTED_MODE_REASON, outputLine } from './messages';
import { logShown } from '../../core/study/disclosure';
import { applyDockerHost, evaluationSettings } from './settings';

export class ContainerEvaluationService implements EvaluationService, vscode.Disposable {
  private readonly started = new vscode.EventEmitter<EvaluationInFlight>();
  private readonly evaluated = new vscode.EventEmitter<StepEvaluation>();
  readonly onDidStart = this.started.event;
  readonly onDidEvaluate = this.evaluated.event;
  /** `${step}:${source}` -> latest evaluation, for the run named by `cacheRunId`. */
  private cache: Record<string, StepEvaluation> = {};
  private cacheRunId: string | undefined;
  private inFlight = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly runs: ActiveRunService,
    private readonly output: vscode.LogOutputChannel,
    /** What of a result may be written to the Output channel (a study's participant reads it too). */
    private readonly disclosure: Pick<DisclosureService, 'current'>,
  ) {
    this.disposables.push(
      runs.onDidChange(() => void this.loadCache()),
      // DOCKER_HOST follows the setting at once: other features (agent tools, terminals' children) see the same engine.
      vscode.workspace.onDidChangeConfiguration(
        (e) => e.affectsConfiguration('chainlens.docker') && applyDockerHost(evaluationSettings()),
      ),
    );
    applyDockerHost(evaluationSettings());
  }

  get running(): boolean {
    return this.inFlight > 0;
  }

  blockedReason(): string | undefined {
    return vscode.workspace.isTrusted ? undefined : RESTRICTED_MODE_REASON;
  }

  latest(step: number, source?: EvaluationSource): StepEvaluation | undefined {
    if (this.cacheRunId !== this.runs.current?.state.runId) return undefined;
    if (source) return this.cache[`${step}:${source}`];
    const both = [this.cache[`${step}:submitted`], this.cache[`${step}:worktree`]].filter(
      (e): e is StepEvaluation => !!e,
    );
    return both.sort((a, b) => b.evaluated_at.localeCompare(a.evaluated_at))[0];
  }

  /** Reads the run's recorded evaluations (kept in its state folder) when the run changes. */
  private async loadCache(): Promise<void> {
    const run = this.runs.current;
    if (!run || run.state.runId === this.cacheRunId) return;
    try {
      // Straight from the run's state folder: no git, so this works in Restricted Mode too.
      const recorded = new EvalStore(run.workspace.store.root).readIndex(run.state.runId);
      if (this.runs.current?.state.runId !== run.state.runId) return;
      this.cache = recorded;
      this.cacheRunId = run.state.runId;
      for (const e of Object.values(recorded)) this.evaluated.fire(e);
    } catch (e) {
      this.output.warn(`could not read the run's earlier evaluations: ${errorMessage(e)}`);
    }
  }

  async exportReport(): Promise<ChainEvaluation> {
    const run = this.runs.require();
    const { exportRunReport } = await loadEvaluator();
    return exportRunReport(run.dir, evaluationSettings().profile);
  }

  async evaluate(options: EvaluateOptions): Promise<StepEvaluation> {
    const run = this.runs.require();
    const step = options.step ?? defaultStepOrder(run.state);
    const blocked = this.blockedReason();
    if (blocked) {
      this.output.warn(`step ${step}: ${blocked}`);
      throw new UserError(blocked, 'environment');
    }
    if (options.source === 'worktree') await saveDirtyDocuments(run.dir);

    const settings = evaluationSettings();
    applyDockerHost(settings);
    const image = settings.image ?? run.chain.dockerImage ?? 'the chain image';
    const logs = new vscode.EventEmitter<string>();
    const progress = new vscode.EventEmitter<string>();
    const abort = new AbortController();
    const external = options.token?.onCancellationRequested(() => abort.abort());
    const what = options.source === 'worktree' ? 'your work' : 'the submitted commit';
    this.output.info(
      `step ${step}: evaluating ${what} in ${image} (${settings.profile}, limit ${settings.timeoutS} s)`,
    );

    this.inFlight++;
    const result = vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `ChainLens: step ${step} tests (${what})`,
        cancellable: true,
      },
      async (reporter, token) => {
        token.onCancellationRequested(() => abort.abort());
        progress.event((message) => reporter.report({ message }));
        reporter.report({ message: `starting a container of ${image}…` });
        const { evaluateStep } = await loadEvaluator();
        return evaluateStep({
          dir: run.dir,
          workspace: run.workspace,
          step,
          source: options.source,
          image: settings.image,
          repoPathInImage: settings.repoPathInImage,
          timeoutS: settings.timeoutS,
          profile: settings.profile,
          signal: abort.signal,
          onLog: (chunk) => logs.fire(chunk),
          onProgress: (message) => {
            this.output.debug(message);
            progress.fire(message);
          },
        });
      },
    );
    const flight: EvaluationInFlight = {
      runId: run.state.runId,
      step,
      source: options.source,
      origin: options.origin,
      onLog: logs.event,
      onProgress: progress.event,
      result: Promise.resolve(result),
      cancel: () => abort.abort(),
    };
    flight.result.catch(() => undefined); // the caller below sees the failure; listeners may not look
    this.started.fire(flight);
    try {
      const evaluation = await result;
      // The Output channel is as blind as every other view: a study's feedback rule decides (docs/study.md).
      const shown = this.disclosure.current;
      this.output.info(outputLine(shown, evaluation));
      if (evaluation.error && logShown(shown)) this.output.warn(`step ${step}: ${evaluation.error}`);
      if (this.cacheRunId !== run.state.runId) {
        this.cache = {};
        this.cacheRunId = run.state.runId;
      }
      this.cache[`${evaluation.order}:${evaluation.source}`] = evaluation;
      this.evaluated.fire(evaluation);
      return evaluation;
    } catch (e) {
      this.output.error(`step ${step}: evaluation failed: ${errorMessage(e)}`);
      throw e;
    } finally {
      this.inFlight--;
      external?.dispose();
      logs.dispose();
      progress.dispose();
    }
  }

  dispose(): void {
    this.started.dispose();
    this.evaluated.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** Unsaved edits would not be in the container (nor in a submit): save the work tree's documents first. */
export async function saveDirtyDocuments(dir: string): Promise<void> {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  const dirty = vscode.workspace.textDocuments.filter(
    (d) => d.isDirty && d.uri.scheme === 'file' && d.uri.fsPath.startsWith(prefix),
  );
  await Promise.all(dirty.map((d) => d.save()));
}
