import type { Condition } from '../../protocol/codethread';
import { ConditionSchema } from '../../protocol/codethread';
import type { StepAuthor } from '../../protocol/run';
import { UserError } from '../util/errors';

/**
 * The authors of a CodeThread task's two steps under each condition (PR1 author, PR2 author):
 * H in step 1 is the original developer (gold) unless a person writes it, A is an agent (a
 * recorded agent's patch, from predictions or a trajectory); H in step 2 of AH is a person.
 */
const AUTHORS: Record<Condition, readonly ['gold' | 'recorded', 'gold' | 'recorded' | 'human']> = {
  HH: ['gold', 'gold'],
  HA: ['gold', 'recorded'],
  AA: ['recorded', 'recorded'],
  AH: ['recorded', 'human'],
};

export function parseCondition(value: string): Condition {
  const parsed = ConditionSchema.safeParse(value.trim().toUpperCase());
  if (!parsed.success) throw new UserError(`--condition must be HH, HA, AA or AH, not '${value}'`, 'usage');
  return parsed.data;
}

/** The authors spec (`checkout --authors`) of a condition. */
export function conditionAuthors(condition: Condition): string {
  return AUTHORS[condition].join(',');
}

/** Which condition a run's two authors make, or null when they make none (e.g. a person on step 1 with an agent on 2). */
export function conditionOf(authors: readonly Pick<StepAuthor, 'kind'>[]): Condition | null {
  if (authors.length !== 2) return null;
  const letter = (kind: string, step: 0 | 1): 'H' | 'A' | null => {
    if (kind === 'recorded' || kind === 'agent-live') return 'A';
    if (kind === 'gold') return 'H';
    if (kind === 'human') return step === 1 ? 'H' : null;
    return null;
  };
  const a = letter(authors[0].kind, 0);
  const b = letter(authors[1].kind, 1);
  if (!a || !b) return null;
  const c = `${a}${b}` as Condition;
  return c === 'AH' && authors[1].kind !== 'human' ? null : c;
}
