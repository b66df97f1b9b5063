import type { FilePair, FileResult } from '../../core/analysis/analyzeStep';
import type { CodeSymbol } from '../../core/analysis/symbols';
import type { UserErrorKind } from '../../core/util/errors';
import type { StepFilesJob, StepFilesResult } from './analyzeStepFiles';

/**
 * What the analysis worker is asked. `cancel` is shared memory: the caller's thread stores 1 in it
 * to cancel, and the worker reads it between files without waiting for a message (a message
 * would only be read after the running analysis).
 */
export type AnalysisRequest =
  | { readonly type: 'analyze'; readonly id: number; readonly job: StepFilesJob; readonly cancel: SharedArrayBuffer }
  | { readonly type: 'symbols'; readonly id: number; readonly path: string; readonly text: string }
  /** Some of a step's file pairs, with the pre-images they read (filePairPool.ts). */
  | {
      readonly type: 'files';
      readonly id: number;
      readonly pairs: readonly FilePair[];
      readonly preImages: ReadonlyMap<string, string | undefined>;
    };

export type AnalysisReply =
  | { readonly type: 'ready' }
  | { readonly type: 'analyzed'; readonly id: number; readonly result: StepFilesResult }
  | { readonly type: 'symbols'; readonly id: number; readonly symbols: readonly CodeSymbol[] | null }
  | { readonly type: 'files'; readonly id: number; readonly results: readonly FileResult[] }
  | { readonly type: 'error'; readonly id: number; readonly message: string; readonly userError?: UserErrorKind };
