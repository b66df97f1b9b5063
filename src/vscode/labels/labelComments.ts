// Drift labels as comment threads on the annotated step's changed ranges (Comments API). A label
// thread shows the label, labeller and time and is resolved; its comment can be edited or removed.
import * as vscode from 'vscode';
import type { DriftLabelRecord } from '../../protocol/labels';
import type { StepAnnotationsService } from '../services';
import { labelHeadline } from './labelMarkdown';

export const CONTROLLER_ID = 'chainlens.labels';

export class LabelComment implements vscode.Comment {
  readonly mode = vscode.CommentMode.Preview;
  readonly contextValue = 'chainlens.label';
  readonly author: vscode.CommentAuthorInformation;
  readonly body: vscode.MarkdownString;
  readonly label: string;
  readonly timestamp: Date;

  constructor(readonly record: DriftLabelRecord) {
    this.author = { name: record.labeller };
    this.label = record.source === 'suggested' ? 'suggested' : 'drift label';
    this.timestamp = new Date(record.time);
    this.body = new vscode.MarkdownString();
    this.body.appendMarkdown(`${labelHeadline(record)}\n\n`);
    this.body.appendText(record.rationale || '(no rationale)');
  }
}

export class LabelThreads implements vscode.Disposable {
  readonly controller = vscode.comments.createCommentController(CONTROLLER_ID, 'ChainLens drift labels');
  /** By target (file, lines, symbol, labeller). */
  private readonly threads = new Map<string, vscode.CommentThread>();

  constructor(private readonly annotations: StepAnnotationsService) {
    this.controller.options = {
      prompt: 'Rationale for a drift label (then pick the label)',
      placeHolder: 'Why does this differ from gold in behaviour?',
    };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: (document) => {
        const a = annotations.current;
        const file = annotations.relativePath(document.uri);
        if (!a || file === undefined) return [];
        const spans = [...(a.changed.get(file) ?? []), ...a.symbols.filter((s) => s.file === file)];
        return spans
          .filter((s) => s.startLine <= document.lineCount)
          .map((s) => new vscode.Range(s.startLine - 1, 0, Math.min(s.endLine, document.lineCount) - 1, 0));
      },
    };
  }

  /**
   * One resolved thread per label of the annotated step. Threads whose target is unchanged are
   * kept and get the new comment (an edited label stays open where the person is looking);
   * only labels added or removed create or dispose threads.
   */
  show(records: readonly DriftLabelRecord[]): void {
    const a = this.annotations.current;
    const wanted = new Map<string, { record: DriftLabelRecord; uri: vscode.Uri; range: vscode.Range }>();
    for (const r of a
      ? records.filter((x) => x.chain === a.chainId && x.step === a.order && (x.run ?? a.runId) === a.runId)
      : []) {
      const uri = this.annotations.fileUri(r.file);
      // Records keep the step's lines; a label on code changed since has no place in the work tree.
      const at = a!.lines.toWorkTree(r.file, r.range);
      if (!uri || !at) continue;
      const range = new vscode.Range(at.startLine - 1, 0, at.endLine - 1, 0);
      let key = `${uri.toString()}|${range.start.line}-${range.end.line}|${r.symbol ?? ''}|${r.labeller}`;
      for (let n = 2; wanted.has(key); n++) key = `${key}#${n}`;
      wanted.set(key, { record: r, uri, range });
    }
    for (const [key, thread] of this.threads) {
      if (!wanted.has(key)) {
        thread.dispose();
        this.threads.delete(key);
      }
    }
    for (const [key, { record, uri, range }] of wanted) {
      let thread = this.threads.get(key);
      if (!thread) {
        thread = this.controller.createCommentThread(uri, range, []);
        thread.canReply = false;
        thread.contextValue = 'chainlens.labelThread';
        thread.state = vscode.CommentThreadState.Resolved;
        thread.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
        this.threads.set(key, thread);
      }
      const current = thread.comments[0];
      if (!(current instanceof LabelComment) || JSON.stringify(current.record) !== JSON.stringify(record)) {
        thread.comments = [new LabelComment(record)];
        thread.label = `Drift label: ${record.label}`;
      }
    }
  }

  /** Expands the threads of one file (after labelling, so the person sees what was saved). */
  expand(file: string, line: number): void {
    for (const t of this.threads.values()) {
      if (
        this.annotations.relativePath(t.uri) === file &&
        t.range &&
        t.range.start.line <= line - 1 &&
        t.range.end.line >= line - 1
      ) {
        t.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      }
    }
  }

  dispose(): void {
    for (const t of this.threads.values()) t.dispose();
    this.controller.dispose();
  }
}
