// One file of one step in the versions a person compares: as the gold patch leaves it, as the
// agent's recorded patch leaves it, as the step's submitted patch left it. Each is the file at the
// step's start with that patch applied (gold and recorded) or read at the step's end (submitted).
// No 'vscode' here: the documents and commands around it are in versionDocuments.ts.
import { applyFilePatch } from '../../core/patch/apply';
import { parsePatch } from '../../core/patch/parse';
import { filePath, type FilePatch } from '../../core/patch/types';
import type { StepState } from '../../protocol/run';
import { readBlobs } from '../../infra/git/blobReader';
import type { ChainRunSnapshot } from '../services';

export type VersionKind = 'gold' | 'recorded' | 'submitted';

/** The file's text in that version, or why there is none (for a person, one sentence). */
export type FileVersion = { readonly text: string } | { readonly missing: string };

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
      ? { missing: `${path} exists neither at step ${step.order}'s start nor in the ${what}.` }
      : { text: pre };
  if (section.newPath === null) return { missing: `The ${what} of step ${step.order} deletes ${path}.` };
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
    case 'gold':
      return patched(run, step, path, run.chain.steps[index].goldPatch, 'gold patch');
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
      return text === undefined ? { missing: `${path} does not exist at the end of step ${order}.` } : { text };
    }
  }
}
