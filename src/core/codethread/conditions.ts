import type { Condition } from '../../protocol/codethread';
import { ConditionSchema } from '../../protocol/codethread';
import type { StepAuthor } from '../../protocol/run';
import { OptionError } from '../util/errors';

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
  if (!parsed.success) throw new OptionError('condition', `must be HH, HA, AA or AH, not '${value}'`);
  return parsed.data;
}

/** The authors spec (`checkout --authors`) of a condition. */
export function conditionAuthors(condition: Condition): string {
  return AUTHORS[condition].join(',');
}

/**
 * Which condition a run's two authors make: a recorded or live agent is A; gold (the original
 * developer) and a person are H. Null for a run that is not two steps.
 */
export function conditionOf(authors: readonly Pick<StepAuthor, 'kind'>[]): Condition | null {
  if (authors.length !== 2) return null;
  const letter = (kind: string) => (kind === 'recorded' || kind === 'agent-live' ? 'A' : 'H');
  return `${letter(authors[0].kind)}${letter(authors[1].kind)}` as Condition;
}
