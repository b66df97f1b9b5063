// One file of one step in the versions a person compares: at the step's start (base), as the gold
// patch leaves it (on the step's Oracle start when it does not apply at the step's own start), as the agent's recorded patch leaves it, as the step's submitted patch left it,
// and as the work tree holds it now (working). Gold and recorded are the file at the step's start
// with that patch applied; submitted is read at the step's end. The editor's documents
// (src/vscode/documents) and the annotations' gold text both read versions here.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isPathSafe } from '../../core/patch/paths';
import { applyFilePatch } from '../../core/patch/apply';
import { parsePatch } from '../../core/patch/parse';
import { filePath, type FilePatch } from '../../core/patch/types';
import type { StepState } from '../../protocol/run';
import { readBlobs } from '../../infra/git/blobReader';
import type { ChainRunSnapshot } from '../run/snapshot';
import { oracleStartText } from './oracleStart';

export const VERSION_KINDS = ['base', 'gold', 'recorded', 'submitted', 'working'] as const;
export type VersionKind = (typeof VERSION_KINDS)[number];

/**
 * The file's text in that version, or why there is none (for a person, one sentence). `absent`:
 * the version has no such file (never created, or deleted), as opposed to a version that cannot be
 * built (step not started, patch does not apply, no recorded patch).
 */
export type FileVersion = { readonly text: string } | { readonly missing: string; readonly absent?: boolean };

export function stepOf(run: ChainRunSnapshot, order: number): { step: StepState; index: number } {
  const index = run.state.steps.findIndex((s) => s.order === order);
  if (index < 0) throw new Error(`The chain has no step ${order}.`);
  return { step: run.state.steps[index], index };
}

/** The recorded (agent's) patch for the step's instance, kept with the run; undefined when the run has none. */
export function recordedPatchOf(run: ChainRunSnapshot, order: number): string | null | undefined {
  const { step } = stepOf(run, order);
  const recorded = run.workspace.store.loadRecorded(run.state.runId);
  return Object.hasOwn(recorded, step.instanceId) ? recorded[step.instanceId] : undefined;
}

function sectionFor(patchText: string, path: string, source: string): FilePatch | undefined {
  return parsePatch(patchText, source).files.find((f) => filePath(f) === path || f.oldPath === path);
}

async function atStart(run: ChainRunSnapshot, step: StepState, path: string): Promise<string | undefined> {
  return (await readBlobs(run.dir, step.start as string, [path])).get(path);
}

/** The file after `patchText` is applied to the step's start; the patch leaving it alone keeps the start's text. */
async function patched(
  run: ChainRunSnapshot,
  step: StepState,
  path: string,
  patchText: string,
  what: string,
): Promise<FileVersion> {
  const section = sectionFor(patchText, path, `${what} of step ${step.order}`);
  const pre = await atStart(run, step, section?.oldPath ?? path);
  if (!section)
    return pre === undefined
      ? { missing: `${path} exists neither at step ${step.order}'s start nor in the ${what}.`, absent: true }
      : { text: pre };
  if (section.newPath === null) return { missing: `The ${what} of step ${step.order} deletes ${path}.`, absent: true };
  try {
    return { text: applyFilePatch(pre ?? '', section) };
  } catch (e) {
    return {
      missing: `The ${what}'s change to ${path} does not apply at step ${step.order}'s start (${e instanceof Error ? e.message : String(e)}).`,
    };
  }
}

export async function fileVersion(
  run: ChainRunSnapshot,
  order: number,
  kind: VersionKind,
  path: string,
): Promise<FileVersion> {
  const { step, index } = stepOf(run, order);
  if (!step.start) return { missing: `Step ${order} has not started yet.` };
  switch (kind) {
    case 'base': {
      const text = await atStart(run, step, path);
      return text === undefined
        ? { missing: `${path} does not exist at step ${order}'s start.`, absent: true }
        : { text };
    }
    case 'working': {
      // The work tree holds the current step only; a path a patch names may still be unsafe.
      if (!isPathSafe(path)) return { missing: `${path} is not a path inside the work tree.` };
      const text = await readFile(join(run.dir, path), 'utf8').catch(() => undefined);
      return text === undefined ? { missing: `${path} does not exist in the work tree.`, absent: true } : { text };
    }
    case 'gold': {
      const gold = run.chain.steps[index].goldPatch;
      const v = await patched(run, step, path, gold, 'gold patch');
      if (!('missing' in v) || v.absent) return v;
      // Gold does not apply on this step's start (Seq: the agent's work): gold's version as it
      // applies on the Oracle start, the state gold was written against.
      const section = sectionFor(gold, path, `gold patch of step ${order}`);
      const oracle = section && (await oracleStartText(run, index, section.oldPath ?? path));
      if (section?.newPath == null || oracle === undefined) return v;
      try {
        return { text: applyFilePatch(oracle, section) };
      } catch {
        return v;
      }
    }
    case 'recorded': {
      const patch = recordedPatchOf(run, order);
      if (patch === undefined)
        return {
          missing: `This run holds no recorded patch for ${step.instanceId}: open the chain with an agent's predictions or trajectory to compare with it.`,
        };
      if (!patch) return { missing: `The agent produced no patch for ${step.instanceId}.` };
      return patched(run, step, path, patch, 'recorded patch');
    }
    case 'submitted': {
      if (!step.end) return { missing: `Step ${order} has not been submitted yet.` };
      const text = (await readBlobs(run.dir, step.end, [path])).get(path);
      return text === undefined
        ? { missing: `${path} does not exist at the end of step ${order}.`, absent: true }
        : { text };
    }
  }
}
