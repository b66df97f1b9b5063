import type { ChainErrorEvidence } from '../../protocol/batch';
import { joinHunks, splitHunks, type PatchHunk } from '../patch';

/** An earlier step of the chain error's chain: its recorded (Seq) patch and its gold patch. */
export interface EarlierStep {
  readonly position: number;
  readonly order: number;
  readonly recorded: string;
  readonly gold: string;
}

export type TrialOutcome = 'resolved' | 'unresolved' | 'error';

/**
 * Grades gold patch k on the start state made of `patches` (one per earlier step, in order):
 * one container (src/app/batch/chainErrorEvidence.ts).
 */
export type GoldTrial = (patches: readonly string[]) => Promise<TrialOutcome>;

/** At most this many hunks are tried one by one per culprit step (each costs a container). */
export const MAX_HUNK_TRIALS = 16;

/**
 * The evidence for one chain error (docs/reference/metrics.md, "Chain-error evidence"):
 * 1. gold k on the Seq start state: passes, `solvable` (the solver failed on a state it could
 *    solve); fails, `poisoned`; no verdict, `inconclusive`.
 * 2. poisoned: each earlier step's recorded patch replaced by its gold patch, one at a time; a
 *    step whose replacement lets gold k pass is a culprit.
 * 3. each culprit, narrowed to hunks: each recorded hunk left out alone (passes: an overshoot,
 *    an edit gold does not make), then each gold hunk added alone (passes: an undershoot, gold's
 *    edit left out). A hunk is named only when that single change lets gold k pass.
 */
export async function searchCulprits(
  earlier: readonly EarlierStep[],
  trial: GoldTrial,
): Promise<Pick<ChainErrorEvidence, 'verdict' | 'culprits' | 'trials'>> {
  const trials: ChainErrorEvidence['trials'] = [];
  const run = async (change: string, patches: readonly string[]) => {
    const outcome = await trial(patches);
    trials.push({ change, outcome });
    return outcome;
  };
  const recorded = earlier.map((s) => s.recorded);
  const first = await run('none', recorded);
  if (first !== 'unresolved')
    return { verdict: first === 'resolved' ? 'solvable' : 'inconclusive', culprits: [], trials };
  const culprits: ChainErrorEvidence['culprits'] = [];
  for (const [i, step] of earlier.entries()) {
    const withGold = recorded.map((p, j) => (j === i ? step.gold : p));
    if ((await run(`step ${step.position}: gold`, withGold)) !== 'resolved') continue;
    const hunks: ChainErrorEvidence['culprits'][number]['hunks'] = [];
    const mine = splitHunks(step.recorded);
    const gold = splitHunks(step.gold);
    const goldBodies = new Set(gold.map((h) => `${h.file}\u0000${h.body}`));
    const ownHunks = mine.filter((h) => !goldBodies.has(`${h.file}\u0000${h.body}`)).slice(0, MAX_HUNK_TRIALS);
    for (const h of ownHunks) {
      const patch = joinHunks(mine.filter((x) => x !== h));
      if ((await run(`step ${step.position}: without ${h.id}`, replace(recorded, i, patch))) === 'resolved')
        hunks.push(mark('overshoot', h));
    }
    const mineBodies = new Set(mine.map((h) => `${h.file}\u0000${h.body}`));
    const missing = gold.filter((h) => !mineBodies.has(`${h.file}\u0000${h.body}`)).slice(0, MAX_HUNK_TRIALS);
    for (const g of missing) {
      // Under the recorded patch's header for that file, when it has one: one section per file.
      const header = mine.find((h) => h.file === g.file)?.header ?? g.header;
      const patch = joinHunks(sortByFile([...mine, { ...g, header }]));
      if ((await run(`step ${step.position}: with gold ${g.id}`, replace(recorded, i, patch))) === 'resolved')
        hunks.push(mark('undershoot', g));
    }
    culprits.push({ position: step.position, order: step.order, hunks });
  }
  return { verdict: 'poisoned', culprits, trials };
}

const replace = (patches: readonly string[], i: number, patch: string) => patches.map((p, j) => (j === i ? patch : p));

const mark = (kind: 'overshoot' | 'undershoot', h: PatchHunk) => ({
  kind,
  hunk: h.id,
  file: h.file,
  header: h.body.split('\n')[0] ?? '',
});

/** Keeps each file's hunks together (one header per file), files in first-seen order. */
function sortByFile(hunks: readonly PatchHunk[]): PatchHunk[] {
  const files = [...new Set(hunks.map((h) => h.file))];
  return files.flatMap((f) => hunks.filter((h) => h.file === f));
}
