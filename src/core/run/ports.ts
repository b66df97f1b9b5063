import type { Chain } from '../../protocol/chain';
import type { PatchStats, RunState } from '../../protocol/run';
import type { Journal } from './journal';

/**
 * What the run engine needs from git. src/infra/git/git.ts implements it with real git; the
 * engine stays free of node:* so the same logic serves the CLI, VS Code and agents.
 */
export interface RepoPort {
  head(): Promise<string>;
  /** HEAD's commit and the branch it is on (`refs/heads/...`; null when detached), in one question; null when HEAD has no commit. */
  headAndBranch(): Promise<{ commit: string; branch: string | null } | null>;
  resolveCommit(rev: string): Promise<string | null>;
  isDirty(): Promise<boolean>;
  commitAll(message: string): Promise<string>;
  stash(message: string): Promise<string>;
  /**
   * Applies `patch` to the work tree, all or nothing: null when it applied, otherwise why it does
   * not apply, the tree left as it was. Throws when a failure left part of it in the tree.
   */
  tryApply(patch: string): Promise<string | null>;
  /** tryApply to the work tree and the index, with what the patch changes counted; `{ conflict }` when it does not apply. */
  applyStaged(patch: string): Promise<{ conflict: string } | { stats: PatchStats }>;
  /** Commits the index as it is (after applyStaged); returns the new HEAD. */
  commitStaged(message: string): Promise<string>;
  /** One commit per layer, each on the previous (base first), built without touching the work tree. */
  commitLayersOnto(
    base: string,
    layers: { message: string; patches: { label: string; text: string }[] }[],
  ): Promise<string[]>;
  switchBranch(branch: string, sha: string): Promise<void>;
  /** Discards whatever is in the work tree and index: only for recovering ChainLens's own interrupted writes. */
  forceSwitchBranch(branch: string, sha: string): Promise<void>;
  removeStaleIndexLock(): Promise<boolean>;
  /** Deletes those of `paths` that exist in the work tree untracked (left by a killed `git apply`); returns them. */
  removeUntracked(paths: readonly string[]): Promise<string[]>;
  updateRef(ref: string, sha: string): Promise<void>;
  /** Sets several refs at once (one transaction): all of them move, or none. */
  updateRefs(updates: readonly { ref: string; sha: string }[]): Promise<void>;
  readRef(ref: string): Promise<string | null>;
  diffStats(from: string, to: string): Promise<PatchStats>;
}

/**
 * A work tree's run state, outside the work tree (docs/run-state.md), written atomically, with one
 * writer at a time.
 */
export interface RunStorePort {
  /**
   * Runs `fn` as the only writer of this work tree's runs, across processes and within this one.
   * Refuses at once (RunInUseError naming the holder) when another operation holds it; calls
   * nested inside `fn` re-enter.
   */
  hold<T>(operation: string, fn: () => Promise<T>): Promise<T>;
  currentRunId(): string | null;
  setCurrentRunId(runId: string): void;
  loadRun(runId: string): RunState | null;
  saveRun(state: RunState): void;
  listRuns(): RunState[];
  loadChain(runId: string): Chain | null;
  saveChain(runId: string, chain: Chain): void;
  /** Patches of `recorded` authors, by instance id, kept with the run so later steps need no file. */
  saveRecorded(runId: string, patches: Record<string, string | null>): void;
  loadRecorded(runId: string): Record<string, string | null>;
  readJournal(): Journal | null;
  writeJournal(journal: Journal): void;
  clearJournal(): void;
}

export interface Clock {
  now(): Date;
}

/** Progress lines for a person (CLI stderr, VS Code's output channel). */
export type EngineLog = (line: string) => void;
