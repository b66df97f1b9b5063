import type { Chain, Prediction } from '../../protocol/chain';
import type { RunMode, RunState, StepAuthor } from '../../protocol/run';
import { OptionError, UserError } from '../util/errors';
import { runBranch } from './refs';

export type AuthorKind = 'gold' | 'human' | 'recorded';
const KINDS: AuthorKind[] = ['gold', 'human', 'recorded'];

/**
 * `--authors` as a person writes it: one kind per step ("recorded,human,human") or by position
 * ("1=recorded,3=gold", others default to human). AH = "recorded,human".
 */
export function parseAuthorsSpec(spec: string, stepCount: number, fallback: AuthorKind = 'human'): AuthorKind[] {
  const parts = spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const out: AuthorKind[] = Array.from({ length: stepCount }, () => fallback);
  const positional = parts.every((p) => !p.includes('='));
  if (positional && parts.length !== stepCount) {
    throw new UserError(
      `the authors name ${parts.length} author(s) but the chain has ${stepCount} steps (or use k=author)`,
      'usage',
    );
  }
  parts.forEach((part, i) => {
    const [posText, kindText] = positional ? [String(i + 1), part] : part.split('=', 2);
    const pos = Number(posText);
    if (!Number.isInteger(pos) || pos < 1 || pos > stepCount)
      throw new UserError(`authors: '${part}' names step ${posText}, but the chain has steps 1-${stepCount}`, 'usage');
    if (!KINDS.includes(kindText as AuthorKind))
      throw new UserError(`authors: '${kindText}' is not an author (gold, human or recorded)`, 'usage');
    out[pos - 1] = kindText as AuthorKind;
  });
  return out;
}

/** Resolves author kinds to authors; `recorded` needs a predictions file holding that instance. */
export function resolveAuthors(
  chain: Chain,
  kinds: AuthorKind[],
  predictions: Map<string, Prediction> | null,
  predictionsFile: string | null,
): StepAuthor[] {
  return chain.steps.map((step, i) => {
    const kind = kinds[i];
    if (kind !== 'recorded') return kind === 'gold' ? { kind: 'gold' } : { kind: 'human' };
    if (!predictions || !predictionsFile)
      throw new OptionError(
        'predictions',
        `step ${step.order} is authored 'recorded' but no predictions file was given`,
      );
    const p = predictions.get(step.instanceId);
    return { kind: 'recorded', model: p?.model ?? 'unknown', source: predictionsFile };
  });
}

/**
 * Where a run may start: at a step the chain has, and in Seq mode only after steps that need no
 * person (Seq builds every earlier step in turn, so each must be gold or recorded). Checked
 * before anything is cloned or written, and again by the engine.
 */
export function checkStartStep(
  chain: Chain,
  mode: RunMode,
  authorKinds: readonly StepAuthor['kind'][],
  startStep: number | undefined,
): void {
  if (startStep === undefined) return;
  const index = chain.steps.findIndex((s) => s.order === startStep);
  if (index < 0)
    throw new OptionError(
      'step',
      `the chain has no step ${startStep}; its steps are ${chain.steps.map((s) => s.order).join(', ')}`,
    );
  if (mode !== 'seq') return;
  const human = chain.steps
    .slice(0, index)
    .find((_, i) => authorKinds[i] === 'human' || authorKinds[i] === 'agent-live');
  if (human)
    throw new UserError(
      `Seq mode builds steps before ${startStep} in turn, but step ${human.order} is authored by a person; author it gold or recorded, or start at step 1`,
      'usage',
    );
}

export function makeRunId(mode: RunMode, now: Date, taken: (id: string) => boolean): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15).toLowerCase();
  let id = `${mode}-${stamp}`;
  for (let n = 2; taken(id); n++) id = `${mode}-${stamp}-${n}`;
  return id;
}

export function createRunState(args: {
  runId: string;
  chain: Chain;
  chainFile: string;
  repoSource: string;
  mode: RunMode;
  authors: StepAuthor[];
  now: Date;
}): RunState {
  const iso = args.now.toISOString();
  return {
    schema: 1,
    runId: args.runId,
    chainId: args.chain.id,
    chainFile: args.chainFile,
    repoSource: args.repoSource,
    mode: args.mode,
    branch: runBranch(args.runId),
    createdAt: iso,
    updatedAt: iso,
    currentStep: null,
    steps: args.chain.steps.map((s, i) => ({
      order: s.order,
      instanceId: s.instanceId,
      author: args.authors[i],
      status: 'pending',
      start: null,
      end: null,
      startedAt: null,
      submittedAt: null,
      elapsedMs: null,
      patch: null,
      note: null,
    })),
  };
}

export function authorLabel(author: StepAuthor): string {
  switch (author.kind) {
    case 'gold':
      return 'gold';
    case 'human':
      return author.name ? `human (${author.name})` : 'human';
    case 'recorded':
      return `recorded (${author.model})`;
    case 'agent-live':
      return `agent (${author.agent})`;
  }
}
