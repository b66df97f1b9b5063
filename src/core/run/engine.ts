import type { Chain, ChainStep } from '../../protocol/chain';
import type { PatchStats, RunMode, RunState, StepAuthor, StepState } from '../../protocol/run';
import { isPathSafe, parsePatch, touchedPaths } from '../patch';
import { UserError } from '../util/errors';
import type { Journal } from './journal';
import { authorLabel, checkStartStep, createRunState, makeRunId } from './plan';
import type { Clock, EngineLog, RepoPort, RunStorePort } from './ports';
import { oracleRef, stashMessage, stepRef } from './refs';

export interface StartRunArgs {
  chain: Chain;
  chainFile: string;
  repoSource: string;
  mode: RunMode;
  authors: StepAuthor[];
  /** Patches of `recorded` authors by instance id (null/'' = the agent produced none). */
  recorded: Record<string, string | null>;
  /** Begin at this step: earlier steps are authored as given (Seq) or skipped (Oracle). */
  startStep?: number;
  /** The work tree was just cloned and checked out: nothing uncommitted can be there. */
  freshClone?: boolean;
  runId?: string;
}

export interface EngineResult {
  state: RunState;
  /** Things a person must be told (where their uncommitted work went, patches that failed). */
  notes: string[];
}

/**
 * The chain engine: starts runs, submits steps and advances through gold/recorded steps, with
 * step boundaries as git refs and state in the run store. Every change that spans several
 * writes goes through a journal, so a process killed at any point leaves a run that the next
 * call rolls forward (see journal.ts).
 */
/** The run is being changed right now by another process or another engine in this one: try again after it. */
export class RunInUseError extends UserError {
  constructor(
    message: string,
    /** The operation holding the run, when the lock names it ("submit", "record the work tree"). */
    readonly holderOperation?: string,
  ) {
    super(message, 'state');
    this.name = 'RunInUseError';
  }
}

/** What a submit must find to go ahead (ChainRunEngine.submit). */
export interface SubmitGuard {
  /** The step the caller means to submit; undefined: whichever is current. */
  readonly step?: number;
  /** Submit a step without any change (an empty patch). */
  readonly allowEmpty: boolean;
  /** How the caller asks for an empty submit, for the refusal's message. */
  readonly emptyHint?: string;
  /**
   * A step without any change is the author's empty patch (status empty_patch, never graded), as
   * a prediction with an empty model_patch is: an agent that left nothing has no patch to test.
   */
  readonly noChangeIsEmptyPatch?: boolean;
}

export class ChainRunEngine {
  private readonly ownPid: number;
  private newRunId: string | null = null;

  constructor(
    private readonly repo: RepoPort,
    private readonly store: RunStorePort,
    private readonly clock: Clock,
    private readonly log: EngineLog = () => {},
    pid = 0,
    /** Failure injection for crash tests: called at named points between writes. */
    private readonly faultPoint: (name: string) => void = () => {},
  ) {
    this.ownPid = pid;
  }

  /**
   * The current run and its chain, after rolling forward anything an earlier process left half
   * done. Opening is reading: it takes the run's lock only when there is something to roll
   * forward or apply, and if another process holds the lock meanwhile (a submit in flight) it
   * returns the run as last saved rather than refusing, so a window and an agent's MCP server
   * can open one run at once (docs/run-state.md, "One writer per run").
   */
  async open(): Promise<{ state: RunState; chain: Chain; notes: string[] }> {
    if (!this.needsWriter()) return { ...this.readSaved(), notes: [] };
    try {
      return await this.store.hold('open', () => this.openHeld());
    } catch (e) {
      if (!(e instanceof RunInUseError)) throw e;
      return { ...this.readSaved(), notes: [] };
    }
  }

  /** Whether opening has writes to do: a journal to roll forward, or a gold/recorded step to apply. */
  private needsWriter(): boolean {
    if (this.store.readJournal() !== null) return true;
    const { state } = this.readSaved();
    if (state.currentStep === null) return false;
    const step = state.steps[this.currentIndex(state)];
    return step.author.kind === 'gold' || step.author.kind === 'recorded';
  }

  private readSaved(): { state: RunState; chain: Chain } {
    const { state, chain } = this.read();
    return { state, chain };
  }

  private async openHeld(): Promise<{ state: RunState; chain: Chain; notes: string[] }> {
    const notes = await this.recoverHeld();
    const { state, chain } = this.read();
    // A current gold/recorded step is work left to do: a process killed between entering the
    // step and journaling its patch leaves exactly this, with no journal to recover from.
    const advanced = await this.advanceAutomatic(state, chain, notes);
    return { state: advanced, chain, notes };
  }

  /**
   * The current run and chain as stored, without recovering or locking: what `status` shows
   * while another process is changing the run (`interrupted`: a change is in flight or was cut off).
   */
  read(): { state: RunState; chain: Chain; interrupted: boolean } {
    const runId = this.store.currentRunId();
    if (!runId)
      throw new UserError('this directory has no ChainLens run (start one with `chainlens checkout`)', 'state');
    const state = this.store.loadRun(runId);
    const chain = this.store.loadChain(runId);
    if (!state || !chain) throw new UserError(`the work tree's current run '${runId}' has no state file`, 'state');
    return { state, chain, interrupted: this.store.readJournal() !== null };
  }

  async start(args: StartRunArgs): Promise<EngineResult> {
    return this.store.hold('start', () => this.startHeld(args));
  }

  private async startHeld(args: StartRunArgs): Promise<EngineResult> {
    const notes = await this.recoverHeld();
    const { chain } = args;
    const base = await this.repo.resolveCommit(chain.baseCommit);
    if (!base) throw new UserError(`the repository has no commit ${chain.baseCommit} (the chain's base_commit)`, 'git');
    checkStartStep(
      chain,
      args.mode,
      args.authors.map((a) => a.kind),
      args.startStep,
    );
    const startStep = args.startStep ?? chain.steps[0].order;

    const runId = args.runId ?? makeRunId(args.mode, this.clock.now(), (id) => this.store.loadRun(id) !== null);
    const state = createRunState({
      runId,
      chain: { ...chain, baseCommit: base },
      chainFile: args.chainFile,
      repoSource: args.repoSource,
      mode: args.mode,
      authors: args.authors,
      now: this.clock.now(),
    });
    // A brand-new run id has no cached Oracle refs yet: no need to ask git for them.
    this.newRunId = runId;
    const earlier = this.store.listRuns().filter((r) => r.runId !== runId);
    if (earlier.length && args.authors.some((a) => a.kind === 'human' || a.kind === 'agent-live'))
      notes.push(
        `This work tree keeps the commits of ${earlier.length} earlier run(s) (${earlier.map((r) => r.runId).join(', ')}) under refs/chainlens/ and their branches: whoever solves here can read them (an Oracle or replayed run holds gold patches). For a clean condition, check the chain out into a new directory.`,
      );

    // Steps before startStep: Oracle skips them (its state is gold anyway); Seq builds them with their authors.
    let first = chain.steps.findIndex((s) => s.order === startStep);
    if (args.mode === 'seq') first = 0;
    for (let i = 0; i < first; i++) state.steps[i].note = 'skipped: Oracle run started at a later step';
    // Before anything of the person's is touched: an Oracle start whose gold patches do not apply
    // fails here, with their work still in the work tree (not in a stash nobody was told about).
    const entered = await this.enterStep(state, chain, first, base);
    if (!args.freshClone && (await this.repo.isDirty())) {
      const where = await this.repo.stash(stashMessage(runId));
      notes.push(`Your uncommitted changes were stashed: ${where}`);
    }
    this.store.saveChain(runId, { ...chain, baseCommit: base });
    this.store.saveRecorded(runId, args.recorded);
    // A kill here leaves a chain copy and no run: a first checkout's clone is then taken away (or
    // finished by the same checkout) like one killed before this start (unfinishedCheckout.ts).
    this.faultPoint('start:chain-saved');
    const target = entered.steps[first].start!;
    // Journal first: once the run is current, a kill before the checkout ends is rolled forward.
    this.writeJournal({ op: 'switch', runId, target, pid: this.ownPid, startedAt: this.clock.now().toISOString() });
    this.store.saveRun(entered);
    // A kill here leaves the new run saved but another run (or none) current: recovery makes it current.
    this.faultPoint('start:run-saved');
    this.store.setCurrentRunId(runId);
    await this.switchWorkTree(entered, target, false, args.freshClone);
    this.store.clearJournal();
    this.log(`run ${runId}: ${args.mode} mode, step ${entered.currentStep} of ${chain.steps.length}`);
    const advanced = await this.advanceAutomatic(entered, chain, notes);
    return { state: advanced, notes };
  }

  /**
   * Commits the current (human) step's work, then moves to the next step. `guard` (the CLI's
   * submit, MCP's submit_step): refused, nothing written, when the run is not on `step` (the step
   * the caller saw: a racing submit finished first), or when the step has no change and
   * `allowEmpty` is not set (docs/run-state.md, "One writer per run").
   */
  async submit(guard?: SubmitGuard): Promise<EngineResult & { submitted: number }> {
    return this.store.hold('submit', () => this.submitHeld(guard));
  }

  private async submitHeld(guard?: SubmitGuard): Promise<EngineResult & { submitted: number }> {
    // A submit cut off after its commit (killed, or a full disk at the state write) is finished by
    // opening: that was the submit asked for again, so no further step is submitted (empty) now.
    const interrupted = this.store.readJournal();
    const { state, chain, notes } = await this.openHeld();
    if (
      interrupted?.op === 'submit' &&
      (guard?.step === undefined || guard.step === interrupted.step) &&
      state.steps.find((s) => s.order === interrupted.step)?.status !== 'current'
    )
      return { state, notes, submitted: interrupted.step };
    if (guard?.step !== undefined && state.currentStep !== guard.step)
      throw new UserError(
        `step ${guard.step} is not the current step (the run is on ${state.currentStep === null ? 'no step: it is complete' : `step ${state.currentStep}`}); nothing was submitted`,
        'state',
      );
    const index = this.currentIndex(state);
    const step = state.steps[index];
    if (step.author.kind === 'gold' || step.author.kind === 'recorded') {
      throw new UserError(
        `step ${step.order} is authored ${authorLabel(step.author)}; it is applied automatically`,
        'state',
      );
    }
    if (guard && !guard.allowEmpty && !(await this.repo.isDirty()))
      throw new UserError(
        `step ${step.order} has no change in the work tree; nothing was submitted (${guard.emptyHint ?? 'submit it empty on purpose if that is meant'})`,
        'state',
      );
    if (guard?.noChangeIsEmptyPatch && !(await this.repo.isDirty())) {
      const next = await this.finishWithoutPatch(state, chain, index, notes);
      return { state: await this.advanceAutomatic(next, chain, notes), notes, submitted: step.order };
    }
    this.writeJournal({
      op: 'submit',
      runId: state.runId,
      step: step.order,
      pid: this.ownPid,
      startedAt: this.clock.now().toISOString(),
    });
    let end: string;
    try {
      end = await this.commitWork(state, chain.steps[index], step.author);
    } catch (e) {
      // Nothing was committed (a damaged .git/index, a full disk): the work is still in the tree
      // and the failure is reported, so no later command may finish this submit behind the
      // person's back. Without the journal the run is as before the submit.
      this.store.clearJournal();
      throw e;
    }
    this.faultPoint('submit:committed');
    this.writeJournal({
      op: 'submit',
      runId: state.runId,
      step: step.order,
      pid: this.ownPid,
      startedAt: this.clock.now().toISOString(),
      end,
    });
    const next = await this.finishStep(state, chain, index, end, 'submitted', null, false);
    const advanced = await this.advanceAutomatic(next, chain, notes);
    return { state: advanced, notes, submitted: step.order };
  }

  /**
   * Changes who solves the current step: an attached agent claiming it (agent-live), or a person
   * taking it over (human). One atomic state write, so no journal is needed: a crash leaves
   * either the old author or the new one. Gold/recorded steps are applied, never handed over.
   */
  async setAuthor(author: StepAuthor): Promise<RunState> {
    if (author.kind !== 'human' && author.kind !== 'agent-live')
      throw new UserError(`a step can be handed only to a person or a live agent, not ${authorLabel(author)}`, 'usage');
    return this.store.hold('set author', () => this.setAuthorHeld(author));
  }

  private async setAuthorHeld(author: StepAuthor): Promise<RunState> {
    const { state } = await this.openHeld();
    const index = this.currentIndex(state);
    const step = state.steps[index];
    if (step.author.kind === 'gold' || step.author.kind === 'recorded') {
      throw new UserError(
        `step ${step.order} is authored ${authorLabel(step.author)}; it is applied automatically`,
        'state',
      );
    }
    const next: RunState = {
      ...state,
      updatedAt: this.clock.now().toISOString(),
      steps: state.steps.map((s, i) => (i === index ? { ...s, author } : s)),
    };
    this.store.saveRun(next);
    this.log(`step ${step.order} is now solved by ${authorLabel(author)}`);
    return next;
  }

  private currentIndex(state: RunState): number {
    if (state.currentStep === null)
      throw new UserError(`run ${state.runId} is complete: every step has been submitted`, 'state');
    return state.steps.findIndex((s) => s.order === state.currentStep);
  }

  /** Commits the step's work, if there is any (a person's or an agent's edits in the work tree). */
  private async commitWork(state: RunState, step: ChainStep, author: StepAuthor): Promise<string> {
    if (await this.repo.isDirty()) return this.repo.commitAll(stepCommitMessage(state, step, author));
    return this.repo.head();
  }

  /** Records step `index` as ended at `end` and enters the next step (or completes the run). */
  private async finishStep(
    state: RunState,
    chain: Chain,
    index: number,
    end: string,
    status: StepState['status'],
    note: string | null,
    recovering: boolean,
    /** What the step changed, when its patch was counted as it was applied (applyStaged). */
    known?: PatchStats,
  ): Promise<RunState> {
    const step = state.steps[index];
    const now = this.clock.now();
    const endRef = { ref: stepRef(state.runId, step.order, 'end'), sha: end };
    const last = index + 1 >= chain.steps.length;
    // The last step's end ref is written while its size is read: two git processes, one wait.
    // Any other's goes in one transaction with the next step's start (enterStep).
    const [, patch] = await Promise.all([
      last ? this.repo.updateRef(endRef.ref, endRef.sha) : Promise.resolve(),
      known ?? this.repo.diffStats(step.start!, end),
    ]);
    // Named for the end ref, which only the last step has written here; a kill here is rolled
    // forward from the submit journal either way.
    this.faultPoint('finish:end-ref');
    const startedAt = step.startedAt ? new Date(step.startedAt).getTime() : now.getTime();
    const done: RunState = {
      ...state,
      updatedAt: now.toISOString(),
      steps: state.steps.map((s, i) =>
        i === index
          ? { ...s, status, end, submittedAt: now.toISOString(), elapsedMs: now.getTime() - startedAt, patch, note }
          : s,
      ),
    };
    let next = done;
    if (!last) {
      next = await this.enterStep(done, chain, index + 1, end, [endRef]);
      // Covered by the caller's submit journal: recovery redoes finishStep with a forced switch.
      await this.switchWorkTree(next, next.steps[index + 1].start!, recovering);
    } else {
      next = { ...done, currentStep: null };
    }
    this.store.saveRun(next);
    this.faultPoint('finish:state-saved');
    this.store.clearJournal();
    this.log(
      `step ${step.order} ${status === 'submitted' ? 'submitted' : status.replace('_', ' ')}: ${patch.files} file(s), +${patch.insertions} -${patch.deletions}`,
    );
    return next;
  }

  /**
   * The state with step `index` current, its start commit computed and recorded as a ref, with
   * `moreRefs` (the previous step's end) in the same transaction.
   */
  private async enterStep(
    state: RunState,
    chain: Chain,
    index: number,
    previousEnd: string,
    moreRefs: { ref: string; sha: string }[] = [],
  ): Promise<RunState> {
    const step = state.steps[index];
    const oracle =
      state.mode === 'seq' || index === 0
        ? { commit: previousEnd, refs: [] }
        : await this.oracleState(state, chain, index);
    const start = oracle.commit;
    // The Oracle states' cache refs and the step's start ref in one git process.
    await this.repo.updateRefs([
      ...moreRefs,
      ...oracle.refs,
      { ref: stepRef(state.runId, step.order, 'start'), sha: start },
    ]);
    return {
      ...state,
      currentStep: step.order,
      updatedAt: this.clock.now().toISOString(),
      steps: state.steps.map((s, i) =>
        i === index ? { ...s, status: 'current', start, startedAt: this.clock.now().toISOString() } : s,
      ),
    };
  }

  /**
   * Oracle start of step `index`: base + gold test_patch and patch of every earlier step, and the
   * refs that cache the states it built (for the caller to write with its own).
   */
  private async oracleState(
    state: RunState,
    chain: Chain,
    index: number,
  ): Promise<{ commit: string; refs: { ref: string; sha: string }[] }> {
    const fresh = this.newRunId === state.runId;
    const cached = fresh ? null : await this.repo.readRef(oracleRef(state.runId, chain.steps[index].order));
    if (cached) return { commit: cached, refs: [] };
    // Start from the latest cached Oracle state below `index` (or base), build the rest in one go.
    let from = 0;
    let commit = chain.baseCommit;
    for (let i = index - 1; i >= 1 && !fresh; i--) {
      const have = await this.repo.readRef(oracleRef(state.runId, chain.steps[i].order));
      if (have) {
        from = i;
        commit = have;
        break;
      }
    }
    const layers = chain.steps.slice(from, index).map((prev) => ({
      message: `chainlens oracle: gold test_patch + patch of step ${prev.order} (${prev.instanceId})`,
      patches: [
        { label: `the gold test_patch of step ${prev.order} (${prev.instanceId})`, text: prev.testPatch },
        { label: `the gold patch of step ${prev.order} (${prev.instanceId})`, text: prev.goldPatch },
      ],
    }));
    const commits = await this.repo.commitLayersOnto(commit, layers);
    const refs = commits.map((sha, k) => ({ ref: oracleRef(state.runId, chain.steps[from + k + 1].order), sha }));
    return { commit: commits[commits.length - 1] ?? commit, refs };
  }

  /** Moves the work tree to `target`; callers journal the move (start: 'switch', finishStep: 'submit'). */
  private async switchWorkTree(
    state: RunState,
    target: string,
    recovering: boolean,
    neverCheckedOut = false,
  ): Promise<void> {
    const here = recovering || neverCheckedOut ? null : await this.repo.headAndBranch();
    if (here?.commit === target) {
      // Already there (Seq: the next step starts where this one ended). Only a person who moved
      // HEAD off the run's branch makes a checkout needed, to make that branch current again.
      // Uncommitted changes need no look: a checkout of the commit HEAD is at keeps them as they
      // are, so whatever is in the tree stays either way (one `git status` less per step).
      if (here.branch !== `refs/heads/${state.branch}`) await this.repo.switchBranch(state.branch, target);
      return;
    }
    this.faultPoint('switch:journaled');
    if (recovering) await this.repo.forceSwitchBranch(state.branch, target);
    else await this.repo.switchBranch(state.branch, target);
  }

  /** Applies gold/recorded patches for as long as the current step is authored so. */
  private async advanceAutomatic(state: RunState, chain: Chain, notes: string[]): Promise<RunState> {
    let current = state;
    const recorded = this.store.loadRecorded(state.runId);
    while (current.currentStep !== null) {
      const index = this.currentIndex(current);
      const step = current.steps[index];
      if (step.author.kind !== 'gold' && step.author.kind !== 'recorded') break;
      const chainStep = chain.steps[index];
      const patch = step.author.kind === 'gold' ? chainStep.goldPatch : (recorded[chainStep.instanceId] ?? null);
      current = await this.applyAuthoredPatch(current, chain, index, patch, notes);
    }
    return current;
  }

  /** The current step ends where it started, as its author's empty patch. */
  private finishWithoutPatch(state: RunState, chain: Chain, index: number, notes: string[]): Promise<RunState> {
    const step = state.steps[index];
    const note = `${authorLabel(step.author)} produced no patch for step ${step.order}`;
    notes.push(note);
    return this.finishAtStart(state, chain, index, 'empty_patch', note);
  }

  /** The current step ends at its start commit with an outcome, journaled like a submit. */
  private finishAtStart(
    state: RunState,
    chain: Chain,
    index: number,
    status: 'empty_patch' | 'patch_failed',
    note: string,
  ): Promise<RunState> {
    const step = state.steps[index];
    this.writeJournal({
      op: 'submit',
      runId: state.runId,
      step: step.order,
      pid: this.ownPid,
      startedAt: this.clock.now().toISOString(),
      end: step.start!,
      outcome: { status, note },
    });
    return this.finishStep(state, chain, index, step.start!, status, note, false);
  }

  private async applyAuthoredPatch(
    state: RunState,
    chain: Chain,
    index: number,
    patch: string | null,
    notes: string[],
  ): Promise<RunState> {
    const step = state.steps[index];
    const who = authorLabel(step.author);
    if (patch === null || patch.trim() === '') return this.finishWithoutPatch(state, chain, index, notes);
    const refusal = unsafePatchReason(patch, `the ${who} patch of step ${step.order}`);
    let conflict = refusal;
    let stats: PatchStats | undefined;
    if (conflict === null) {
      // Journaled before the patch is applied: a process killed while git writes the files
      // leaves a journal that recover() rolls back (rollForward, 'apply').
      this.writeJournal({
        op: 'apply',
        runId: state.runId,
        step: step.order,
        pid: this.ownPid,
        startedAt: this.clock.now().toISOString(),
      });
      // Staged as it is applied, and counted: the commit needs no `git add -A`, the step's size
      // no `git diff` (the start commit was just checked out or committed, so the index is it).
      const applied = await this.repo.applyStaged(patch);
      if ('conflict' in applied) conflict = applied.conflict;
      else stats = applied.stats;
    }
    if (conflict !== null) {
      const note = refusal ?? `the ${who} patch of step ${step.order} does not apply: ${conflict}`;
      notes.push(`${note} (the repository was left unchanged)`);
      return this.finishAtStart(state, chain, index, 'patch_failed', note);
    }
    this.faultPoint('apply:applied');
    const end = await this.repo.commitStaged(stepCommitMessage(state, chain.steps[index], step.author));
    this.writeJournal({
      op: 'submit',
      runId: state.runId,
      step: step.order,
      pid: this.ownPid,
      startedAt: this.clock.now().toISOString(),
      end,
    });
    return this.finishStep(state, chain, index, end, 'submitted', null, false, stats);
  }

  private writeJournal(journal: Journal): void {
    this.store.writeJournal(journal);
  }

  /**
   * Rolls forward a change an earlier operation left half done (its process was killed, or it
   * failed half way). Returns notes for a person. Under the run's lock, a journal is never an
   * operation still running: the lock has exactly one holder, us.
   */
  async recover(): Promise<string[]> {
    return this.store.hold('recover', () => this.recoverHeld());
  }

  private async recoverHeld(): Promise<string[]> {
    const journal = this.store.readJournal();
    if (!journal) return [];
    const state = this.store.loadRun(journal.runId);
    const chain = this.store.loadChain(journal.runId);
    if (!state || !chain) {
      this.store.clearJournal();
      return [];
    }
    const removedLock = await this.repo.removeStaleIndexLock();
    const notes = [
      `recovered run ${state.runId} after an interrupted ${journal.op}${removedLock ? ' (removed a stale .git/index.lock)' : ''}`,
    ];
    await this.rollForward(journal, state, chain);
    // Whatever was interrupted, a run whose current step is gold/recorded goes on being replayed.
    const latest = this.store.loadRun(state.runId)!;
    await this.advanceAutomatic(latest, chain, notes);
    return notes;
  }

  private async rollForward(journal: Journal, state: RunState, chain: Chain): Promise<void> {
    if (journal.op === 'switch') {
      // The switch was to this run: finish it, and make the run current if that was not written yet.
      await this.repo.forceSwitchBranch(state.branch, journal.target);
      this.store.setCurrentRunId(state.runId);
      this.store.clearJournal();
      return;
    }
    const index = state.steps.findIndex((s) => s.order === journal.step);
    const step = state.steps[index];
    if (step.status !== 'current') {
      // The change completed and was saved; only the journal was left behind.
      this.store.clearJournal();
      return;
    }
    if (journal.op === 'apply') {
      // A gold/recorded patch was being applied: nothing of a person's is in the tree, start over.
      // A forced checkout leaves files the patch had already created (untracked), and the patch
      // would not apply again over them: remove exactly those.
      await this.repo.forceSwitchBranch(state.branch, step.start!);
      const patch =
        step.author.kind === 'gold'
          ? chain.steps[index].goldPatch
          : step.author.kind === 'recorded'
            ? this.store.loadRecorded(state.runId)[step.instanceId]
            : null;
      if (patch) await this.repo.removeUntracked(createdPaths(patch));
      this.store.clearJournal();
      return;
    }
    const end = journal.end ?? (await this.commitWork(state, chain.steps[index], step.author));
    const outcome = journal.outcome ?? { status: 'submitted' as const, note: null };
    await this.finishStep(state, chain, index, end, outcome.status, outcome.note, true);
  }
}

/** The message of a step's commit, whoever made it. */
function stepCommitMessage(state: RunState, step: ChainStep, author: StepAuthor): string {
  return `chainlens: step ${step.order} (${step.instanceId}) by ${authorLabel(author)}\n\nrun ${state.runId}, ${state.mode} mode`;
}

/** Why a patch must not be applied (it writes outside the repository or into .git), or null. */
/** Paths a patch creates (new files, rename and copy targets); none if it does not parse. */
function createdPaths(patch: string): string[] {
  try {
    return parsePatch(patch, 'patch').files.flatMap((f) =>
      f.newPath !== null && f.newPath !== f.oldPath && isPathSafe(f.newPath) ? [f.newPath] : [],
    );
  } catch {
    return [];
  }
}

export function unsafePatchReason(patch: string, what: string): string | null {
  let paths: string[];
  try {
    paths = touchedPaths(parsePatch(patch, what));
  } catch (e) {
    return `${what} is not a valid patch: ${(e as Error).message}`;
  }
  const bad = paths.filter((p) => !isPathSafe(p));
  return bad.length ? `${what} was refused: it writes outside the repository (${bad.join(', ')})` : null;
}
