// A checkout renames its finished clone into place, then starts the run in it. A process killed
// between the two leaves a directory that holds a repository ChainLens made (only `.git`, with
// `refs/chainlens/base` and no index: nothing was ever checked out) and no run (maybe the chain
// copy its start saved just before the run, and the step refs it made). It holds nothing
// of the person's, so the next command that opens it takes it away again, leaving the directory
// empty, unless the checkout that made it still runs (docs/reference/cli.md, "Checkout").
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_REF } from '../git/mirror';
import { lockHolder } from './runLock';
import { checkoutLockPath } from './stateDir';
import type { RunStore } from './store';

/** Whether `workTree` is such a leftover (its checkout gone or not). */
export function isUnfinishedCheckout(workTree: string, store: RunStore): boolean {
  const entries = readdirSync(workTree);
  if (entries.length !== 1 || entries[0] !== '.git') return false;
  const gitDir = join(workTree, '.git');
  if (existsSync(join(gitDir, 'index')) || !existsSync(join(gitDir, BASE_REF))) return false;
  // Nothing but the base ref: no branch of a run, nor one of the person's.
  const heads = join(gitDir, 'refs', 'heads');
  if (existsSync(heads) && readdirSync(heads).length > 0) return false;
  const packed = join(gitDir, 'packed-refs');
  if (existsSync(packed) && /^[0-9a-f]{40,64} refs\/heads\//m.test(readFileSync(packed, 'utf8'))) return false;
  // Killed between writing the pointer in .git and making the state folder it names: a clone of
  // ours with a pointer to nothing, which holds nothing of the person's either.
  if (store.pointsAtMissingFolder) return true;
  if (store.currentRunId() !== null) return false;
  // A state folder that holds a run's state is not a first checkout's, or it is one killed after
  // it journaled the switch to its saved run: that the next command rolls forward (crash recovery).
  // The chain copy and recorded patches a start saves before its run are no run yet.
  return !(store.exists && store.listRunIds().length > 0);
}

/**
 * Removes such a leftover (its repository and the state folder its run had begun to get) and
 * says so; or, while its checkout still runs, says who is making it. Returns the message.
 */
export function cleanUnfinishedCheckout(workTree: string, store: RunStore): string {
  const making = lockHolder(checkoutLockPath(workTree), `the work tree ${workTree}`);
  if (making) return `${making}: it has no run yet`;
  // A pointer to a folder that was never made: only the clone is left to remove.
  if (store.exists && !store.pointsAtMissingFolder) rmSync(store.root, { recursive: true, force: true });
  rmSync(join(workTree, '.git'), { recursive: true, force: true });
  return `${workTree} held the clone of a checkout that was killed before its run started; it was removed (the directory is empty now): check the chain out again`;
}
