import { UserError } from '../../../core/util/errors';

/** A positive whole number option (`--limit 20`), or a usage error naming the flag. */
export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(value) || Number(value) < 1)
    throw new UserError(`${flag} must be a whole number of at least 1, not '${value}'`, 'usage');
  return Number(value);
}

/** A positive number option (`--gamma 1.2`), or a usage error naming the flag. */
export function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d*\.?\d+\s*$/.test(value) || !(n > 0))
    throw new UserError(`${flag} must be a positive number, not '${value}'`, 'usage');
  return n;
}

export function fixed(n: number, digits = 4): string {
  return n.toFixed(digits);
}

/** One of a fixed set of values (`--failed-run keep`), or a usage error naming the flag and the set. */
export function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UserError(`${flag} must be one of ${allowed.join(', ')}, not '${value}'`, 'usage');
  return value as T;
}
