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

const OPS: readonly string[] = ['submit', 'apply', 'switch'];

/**
 * What makes a parsed journal.json unusable (a JSON path and why), or null. Recovery acts on a
 * journal (it commits, switches branches), so one it does not understand is refused and kept for a
 * person to look at, never guessed at or deleted.
 */
export function journalProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not a JSON object';
  const j = value as Record<string, unknown>;
  if (typeof j.op !== 'string' || !OPS.includes(j.op))
    return `op: ${JSON.stringify(j.op) ?? 'missing'} is not an operation this ChainLens knows (${OPS.join(', ')})`;
  if (typeof j.runId !== 'string' || j.runId === '') return 'runId: a run id is required';
  if (j.op === 'switch') return typeof j.target === 'string' ? null : 'target: a commit is required';
  return Number.isInteger(j.step) ? null : 'step: a step number is required';
}
