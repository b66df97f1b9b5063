/**
 * Intent record for a multi-step change to a run (git commits, refs, state file). Written before
 * the change and cleared after it; if the process dies in between (SIGKILL), the next engine to
 * open the run finds it and rolls the change forward, so a run is never left half-submitted.
 *
 * - submit: a step's work is being committed and the next step entered. `end` is set once the
 *   step's commit exists (from then on the person's work is safe in git).
 * - apply: a gold/recorded patch is being applied to the work tree (no human work is there:
 *   it was committed or stashed before), so recovery may discard a half-applied patch.
 * - switch: the work tree is being moved to `target` (uncommitted work was stashed first).
 */
export type Journal =
  | {
      op: 'submit';
      runId: string;
      step: number;
      pid: number;
      startedAt: string;
      end?: string;
      outcome?: { status: 'submitted' | 'patch_failed' | 'empty_patch'; note: string | null };
    }
  | { op: 'apply'; runId: string; step: number; pid: number; startedAt: string }
  | { op: 'switch'; runId: string; target: string; pid: number; startedAt: string };
