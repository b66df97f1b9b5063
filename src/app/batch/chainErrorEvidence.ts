// Chain errors explained by test (docs/reference/metrics.md, "Chain-error evidence"): for each
// chain error of a batch, gold patch k graded on the Seq start state of step k, and where that
// fails, the earlier steps (and their hunks) whose replacement lets it pass. Each trial is one
// checkout of the chain up to step k and one call of the evaluation use case.
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import type { BatchManifest, ChainErrorEvidence } from '../../protocol/batch';
import type { Chain } from '../../protocol/chain';
import type { StepAuthor } from '../../protocol/run';
import { buildBatchReport, searchCulprits, type ChainErrorRow, type TrialOutcome } from '../../core/batch';
import { UserError } from '../../core/util/errors';
import { BatchRunDir } from '../../infra/batch/runDir';
import { loadSource, type LoadedSource } from '../../infra/batch/sources';
import { connectDocker, ensureImage, orphanSweepSettled, type EvaluationEngine } from '../../infra/docker';
import { parseRepoSource } from '../../infra/git/mirror';
import { withDataRoot } from '../../infra/run/stateDir';
import { checkoutRun } from '../../infra/run/workspace';
import { evaluateStep } from '../evaluation';
import { chainsOf, repoFor } from './runBatch';
import { manifestEvaluation } from './manifestEvaluation';

export interface EvidenceOptions {
  readonly runDir: string;
  readonly signal?: AbortSignal;
  readonly engine?: EvaluationEngine;
  /** One line per trial, for a person. */
  readonly onNote?: (line: string) => void;
}

/**
 * Gathers the evidence of every chain error that has none yet, writing each as soon as it is
 * done (a killed run keeps what it finished). Returns every evidence file of the run directory.
 */
export async function gatherEvidence(o: EvidenceOptions): Promise<ChainErrorEvidence[]> {
  const dir = new BatchRunDir(o.runDir);
  const manifest = dir.readManifest();
  const lock = dir.lock();
  try {
    const evidence = await withDataRoot(dir.stateRoot, async () => {
      dir.clearLeftovers();
      const records = dir.readRecords();
      const done = new Set(dir.readEvidence().map((e) => `${e.chain_id}/${e.source}/${e.order}`));
      const todo = buildBatchReport(manifest, records).chainErrors.filter(
        (e) => !done.has(`${e.chainId}/${e.source}/${e.order}`),
      );
      if (todo.length) {
        const chains = await chainsOf(manifest);
        const docker = await connectDocker();
        for (const image of new Set(todo.map((e) => imageOf(manifest, e.chainId))))
          await ensureImage(image, undefined, docker);
        const sources = new Map(manifest.sources.map((s) => [s.name, loadSource(s)]));
        for (const error of todo) {
          if (o.signal?.aborted) break;
          const evidence = await explain(
            dir,
            manifest,
            chains.get(error.chainId)!,
            sources.get(error.source)!,
            error,
            o,
          );
          if (evidence) dir.writeEvidence(evidence);
        }
      }
      await orphanSweepSettled();
      return dir.readEvidence();
    });
    // The trials' work trees and state are scratch, not results: gone as a finished batch's are.
    dir.clearLeftovers();
    return evidence;
  } finally {
    lock.release();
  }
}

const imageOf = (manifest: BatchManifest, chainId: string) =>
  manifest.options.image ?? manifest.chains.find((c) => c.id === chainId)!.image;

async function explain(
  dir: BatchRunDir,
  manifest: BatchManifest,
  chain: Chain,
  source: LoadedSource,
  error: ChainErrorRow,
  o: EvidenceOptions,
): Promise<ChainErrorEvidence | null> {
  const index = chain.steps.findIndex((s) => s.order === error.order);
  const upToK: Chain = { ...chain, steps: chain.steps.slice(0, index + 1) };
  const earlier = upToK.steps.slice(0, index).map((s, i) => ({
    position: i + 1,
    order: s.order,
    recorded: source.predictions.get(s.instanceId)?.patch ?? '',
    gold: s.goldPatch,
  }));
  let n = 0;
  let cancelled = false;
  const trial = async (patches: readonly string[]): Promise<TrialOutcome> => {
    const workdir = join(dir.workRoot, `evidence-${error.chainId}-${error.order}-${++n}`);
    const authors: StepAuthor[] = upToK.steps.map((_, i) =>
      i < index
        ? { kind: 'recorded', model: 'evidence', source: source.source.path ?? source.source.name }
        : { kind: 'gold' },
    );
    const recorded = Object.fromEntries(upToK.steps.slice(0, index).map((s, i) => [s.instanceId, patches[i] || null]));
    const origin = manifest.chains.find((c) => c.id === chain.id)!.origin;
    const { workspace: ws } = await checkoutRun(
      upToK,
      parseRepoSource(repoFor(manifest, chain), '/'),
      workdir,
      { chainFile: origin.replace(/:\d+$/, ''), mode: 'seq', authors, recorded },
      () => {},
      'batch',
    );
    try {
      const result = await evaluateStep({
        dir: ws.dir,
        workspace: ws,
        step: error.order,
        source: 'submitted',
        ...manifestEvaluation(manifest),
        signal: o.signal,
        engine: o.engine,
      });
      if (result.error_kind === 'cancelled') cancelled = true;
      // Gold that does not apply on the state, or leaves no test collectable, fails there: the
      // state's doing. Only the environment (or a timeout) leaves the trial without a verdict.
      const outcome: TrialOutcome = result.resolved
        ? 'resolved'
        : result.status === 'unresolved' || result.error_kind === 'patch' || result.error_kind === 'log'
          ? 'unresolved'
          : 'error';
      o.onNote?.(`${error.source} ${error.chainId} step ${error.order}, trial ${n}: gold ${outcome}`);
      return outcome;
    } finally {
      await rm(ws.store.root, { recursive: true, force: true });
      await rm(ws.dir, { recursive: true, force: true });
    }
  };
  try {
    const found = await searchCulprits(earlier, trial);
    if (cancelled) return null;
    return {
      version: 1,
      chain_id: error.chainId,
      source: error.source,
      order: error.order,
      position: error.position,
      ...found,
      finished_at: new Date().toISOString(),
    };
  } catch (e) {
    if (e instanceof UserError) {
      o.onNote?.(`${error.source} ${error.chainId} step ${error.order}: no evidence (${e.message})`);
      return null;
    }
    throw e;
  }
}
