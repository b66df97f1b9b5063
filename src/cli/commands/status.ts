import type { CliCommand, CliIO } from '../command';
import { parseCommandArgs } from '../args';
import type { Chain } from '../../protocol/chain';
import type { RunState, StepState } from '../../protocol/run';
import { authorLabel } from '../../core/run/plan';
import { RunInUseError } from '../../core/run/engine';
import { STASH_PREFIX } from '../../core/run/refs';
import { openWorkspace } from '../../infra/run/workspace';
import { certainlyNoStash } from '../../infra/git/repoFiles';
import { certainlyClean } from '../../infra/git/cleanWorkTree';
import { table } from '../format';
import { formatDuration } from '../../core/util/duration';
import { sweciSummary, sweciSummaryLine } from '../../app/sweci/summary';

const usage = `usage: chainlens status [--dir <workdir>] [--json]

Shows the run of the work tree: chain, mode, current step, and per step its author, status,
patch size and time spent (start to submit; for the current step, so far). Also where the run's
state folder is, and any stash ChainLens made of uncommitted work (with how to restore it).
While another ChainLens process changes the run, shows it as it is on disk and says who is busy.`;

export interface StashEntry {
  ref: string;
  sha: string;
  message: string;
}

export const statusCommand: CliCommand = {
  name: 'status',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, { dir: { type: 'string' }, json: { type: 'boolean' } }, usage);
    const ws = await openWorkspace(values.dir ?? io.cwd, (l) => io.err(l));
    let run: { state: RunState; chain: Chain };
    let busy: string | null = null;
    try {
      const opened = await ws.engine.open();
      for (const n of opened.notes) io.err(n);
      run = opened;
      // Opening needed no lock (nothing to recover): whoever holds it is still named.
      busy = ws.store.busy();
    } catch (e) {
      // Another process is changing the run: show it as it is on disk, recover nothing.
      if (!(e instanceof RunInUseError)) throw e;
      busy = e.message;
      run = ws.engine.read();
    }
    const { state, chain } = run;
    // A clean work tree is seen from .git's files; any doubt is git's to settle (cleanWorkTree.ts).
    const dirty = certainlyClean(ws.dir, ws.store.gitDir) ? false : await ws.git.isDirty();
    // A kill after the stash but before its note was printed would otherwise hide the person's work.
    // Most work trees have no stash at all: that is read from .git without starting git.
    const all = certainlyNoStash(ws.store.gitDir) ? [] : await ws.git.listStashes();
    const stashes = all.filter((s) => s.message.startsWith(STASH_PREFIX));
    if (values.json) {
      io.out(
        JSON.stringify(
          {
            ...statusJson(state, chain, ws.dir, dirty),
            stateDir: ws.store.root,
            stashes,
            busy,
            sweci: sweciSummary(ws.store.root, state.runId),
          },
          null,
          2,
        ),
      );
      return 0;
    }
    printStatus(io, state, chain, ws.dir, dirty);
    io.out(`\nstate  ${ws.store.root}`);
    const sweci = sweciSummary(ws.store.root, state.runId);
    if (sweci) io.out(sweciSummaryLine(sweci));
    for (const s of stashes) io.out(stashLine(s));
    if (busy) io.err(`note: ${busy}`);
    return 0;
  },
};

/** One ChainLens stash, with the command that brings the work back. */
export function stashLine(s: StashEntry): string {
  const before = s.message.slice(STASH_PREFIX.length);
  return `stash  ${s.ref} (${s.sha.slice(0, 10)}): your uncommitted work from before run ${before} started; restore with: git stash apply ${s.ref}`;
}

function elapsed(step: StepState, now: number): number | null {
  if (step.elapsedMs !== null) return step.elapsedMs;
  if (step.status === 'current' && step.startedAt) return now - new Date(step.startedAt).getTime();
  return null;
}

export function statusJson(state: RunState, chain: Chain, dir: string, dirty: boolean) {
  const now = Date.now();
  return {
    dir,
    chain: {
      id: chain.id,
      repo: chain.repo,
      format: chain.format,
      baseCommit: chain.baseCommit,
      dockerImage: chain.dockerImage,
      steps: chain.steps.length,
      file: state.chainFile,
    },
    run: {
      id: state.runId,
      mode: state.mode,
      branch: state.branch,
      repoSource: state.repoSource,
      createdAt: state.createdAt,
      currentStep: state.currentStep,
      complete: state.currentStep === null,
    },
    uncommittedChanges: dirty,
    steps: state.steps.map((s) => ({
      order: s.order,
      instanceId: s.instanceId,
      author: s.author,
      status: s.status,
      start: s.start,
      end: s.end,
      patch: s.patch,
      elapsedMs: elapsed(s, now),
      note: s.note,
    })),
  };
}

export function printStatus(io: CliIO, state: RunState, chain: Chain, dir: string, dirty: boolean): void {
  const now = Date.now();
  const where = state.currentStep === null ? 'complete' : `step ${state.currentStep} of ${chain.steps.length}`;
  io.out(
    `chain  ${chain.id} (${chain.repo}, ${chain.steps.length} steps)\nrun    ${state.runId}  mode ${state.mode}  ${where}\ndir    ${dir}${dirty ? '  (uncommitted changes)' : ''}\n`,
  );
  const rows = [['#', 'instance', 'author', 'status', 'patch', 'time']];
  for (const s of state.steps) {
    const patch = s.patch
      ? `${s.patch.files} file${s.patch.files === 1 ? '' : 's'} +${s.patch.insertions} -${s.patch.deletions}`
      : '';
    rows.push([
      s.status === 'current' ? `>${s.order}` : ` ${s.order}`,
      s.instanceId,
      authorLabel(s.author),
      s.status.replace('_', ' '),
      patch,
      durationCell(elapsed(s, now)),
    ]);
  }
  io.out(table(rows));
  for (const s of state.steps) if (s.note && !s.note.startsWith('skipped')) io.out(`  step ${s.order}: ${s.note}`);
}

/** A step's time in the table: empty for a step never worked on. */
function durationCell(ms: number | null): string {
  return ms === null ? '' : formatDuration(ms);
}
