// The editor's analysis thread: one long-lived worker (dist/analysis-worker.js) that parses and
// analyses, so the extension host's thread never runs tree-sitter. A request the caller cancels
// is stopped between files through shared memory; the caller's newer request queues behind it.
// When no worker can start (the bundle is missing, worker threads are refused), everything runs
// on the caller's thread instead, with the same results (analysisRequests.ts answers both).
import type { Worker } from 'node:worker_threads';
import { SymbolTable, lineCountOf } from '../../core/analysis/symbolList';
import type { SymbolIndex, SymbolList, SymbolLookup } from '../../core/analysis/symbols';
import { languageOf } from '../../core/analysis/syntax';
import type { CancellationTokenLike } from '../../core/util/cancellation';
import { UserError } from '../../core/util/errors';
import { createTreeSitterSymbolIndex } from '../symbols/symbolIndex';
import { answer } from './analysisRequests';
import { startAnalysisWorker } from './analysisWorkerStart';
import type { StepFilesAnalyzer, StepFilesJob, StepFilesResult } from './analyzeStepFiles';
import type { AnalysisReply, AnalysisRequest } from './analysisWorkerProtocol';

export interface AnalysisThreadOptions {
  /** The bundled worker (the extension: `context.asAbsolutePath('dist/analysis-worker.js')`). */
  readonly workerScript?: string;
  /** 'current': no worker, everything on the caller's thread. */
  readonly thread?: 'worker' | 'current';
  /** Told once, with the reason, when analysis falls back to the caller's thread. */
  readonly onFallback?: (reason: string) => void;
}

interface Pending {
  readonly request: AnalysisRequest;
  resolve(reply: AnalysisReply): void;
  reject(error: Error): void;
}

export class AnalysisThread implements StepFilesAnalyzer, SymbolLookup {
  private worker: Worker | undefined;
  /** The current worker said it is running (its failures after that are not start failures). */
  private started = false;
  /** Set once analysis runs on the caller's thread. */
  private local: SymbolIndex | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;

  constructor(private readonly options: AnalysisThreadOptions = {}) {
    if (options.thread === 'current') this.local = createTreeSitterSymbolIndex();
  }

  /** Where the last request ran (or the next will): a worker, or the caller's thread. */
  get where(): 'worker' | 'current' {
    return this.local ? 'current' : 'worker';
  }

  async analyze(job: StepFilesJob, cancellation?: CancellationTokenLike): Promise<StepFilesResult> {
    const cancel = new SharedArrayBuffer(4);
    const flag = new Int32Array(cancel);
    const stop = () => Atomics.store(flag, 0, 1);
    if (cancellation?.isCancellationRequested) stop();
    const subscription = cancellation?.onCancellationRequested(stop);
    try {
      const reply = await this.request({ type: 'analyze', id: this.nextId++, job, cancel });
      if (reply.type !== 'analyzed') throw new Error(`analysis worker: unexpected reply ${reply.type}`);
      return reply.result;
    } finally {
      subscription?.dispose();
    }
  }

  async symbolsOf(path: string, text: string): Promise<SymbolList | undefined> {
    if (!languageOf(path)) return undefined;
    const reply = await this.request({ type: 'symbols', id: this.nextId++, path, text });
    if (reply.type !== 'symbols') throw new Error(`analysis worker: unexpected reply ${reply.type}`);
    return reply.symbols ? new SymbolTable(reply.symbols, lineCountOf(text)) : undefined;
  }

  private async request(request: AnalysisRequest): Promise<AnalysisReply> {
    if (this.disposed) throw new UserError('patch analysis cancelled', 'state');
    const worker = this.local ? undefined : this.ensureWorker();
    const reply = worker
      ? await new Promise<AnalysisReply>((resolve, reject) => {
          this.pending.set(request.id, { request, resolve, reject });
          worker.ref();
          worker.postMessage(request);
        })
      : await this.here(request);
    if (reply.type === 'error')
      throw reply.userError ? new UserError(reply.message, reply.userError) : new Error(reply.message);
    return reply;
  }

  private here(request: AnalysisRequest): Promise<AnalysisReply> {
    this.local ??= createTreeSitterSymbolIndex();
    return answer(request, this.local);
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker) return this.worker;
    let started: Worker | string;
    try {
      started = startAnalysisWorker(this.options.workerScript);
    } catch (e) {
      started = (e as Error).message;
    }
    if (typeof started === 'string') {
      this.fallBack(`no analysis worker (${started})`);
      return undefined;
    }
    const worker = started;
    this.worker = worker;
    this.started = false;
    worker.on('message', (m: AnalysisReply) => {
      if (m.type === 'ready') {
        this.started = true;
        return;
      }
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      p?.resolve(m);
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (!this.started) return this.fallBack(`the analysis worker could not start: ${why}`);
      // It ran before: the next request starts a new one; these ones fail.
      const failed = [...this.pending.values()];
      this.pending.clear();
      for (const p of failed) p.reject(new Error(`the analysis worker stopped: ${why}`));
    };
    worker.on('error', (e) => lost(e.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    // An idle worker does not keep its process alive; one with requests does (see request()).
    worker.unref();
    return worker;
  }

  /** From now on, on the caller's thread; requests already sent to a dead worker run here. */
  private fallBack(reason: string): void {
    if (this.local) return;
    this.local = createTreeSitterSymbolIndex();
    this.options.onFallback?.(reason);
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) void this.here(p.request).then(p.resolve, p.reject);
  }

  dispose(): void {
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(new UserError('patch analysis cancelled', 'state'));
  }
}
