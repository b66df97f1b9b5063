// What the label commands share: the run's label store, the comment threads showing its labels
// on the annotated step, and who is labelling. One per window.
import * as vscode from 'vscode';
import type { StepAnnotations } from '../../app/analysis/annotateStep';
import { LabelStore, labelsFile } from '../../infra/labels/labelStore';
import type { DriftLabelRecord } from '../../protocol/labels';
import type { ChainLensServices, StepAnnotationsService } from '../services';
import { LabelThreads } from './labelComments';
import { labellerName } from './labellerName';

export class LabelSession implements vscode.Disposable {
  readonly threads: LabelThreads;
  private cached: LabelStore | undefined;

  constructor(
    readonly services: ChainLensServices,
    readonly annotations: StepAnnotationsService,
  ) {
    this.threads = new LabelThreads(annotations);
  }

  /** The open run's labels file. */
  store(): LabelStore {
    const run = this.services.run;
    if (!run) throw new Error('No chain is open.');
    const path = labelsFile(run.workspace.store.root, run.state.runId);
    if (this.cached?.path !== path) this.cached = new LabelStore(path);
    return this.cached;
  }

  requireAnnotations(): StepAnnotations {
    const a = this.annotations.current;
    if (!a) throw new Error('No step is annotated: open a chain and start or submit a step first.');
    return a;
  }

  labeller(): Promise<string> {
    return labellerName(this.services);
  }

  /** Redraws the threads from the file (a bad file is reported in the log, not thrown at a listener). */
  async showThreads(): Promise<void> {
    try {
      this.threads.show(this.annotations.current ? await this.store().load() : []);
    } catch (e) {
      this.services.output.warn(`labels: ${(e as Error).message}`);
    }
  }

  /** Appends a label and shows its thread opened where it was put. */
  async save(record: DriftLabelRecord, workTreeLine: number): Promise<void> {
    this.store().add(record);
    await this.showThreads();
    this.threads.expand(record.file, workTreeLine);
  }

  dispose(): void {
    this.threads.dispose();
  }
}
