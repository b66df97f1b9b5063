import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UserError } from '../core/util/errors';

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs with errors a person can act on (exit code 2, the usage shown by the caller). */
export function parseCommandArgs<O extends Options>(argv: string[], options: O, usage: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UserError(`${(e as Error).message}\n\n${usage}`, 'usage');
  }
}

export function requireOption(value: string | undefined, flag: string, usage: string): string {
  if (value === undefined || value === '') throw new UserError(`missing required option ${flag}\n\n${usage}`, 'usage');
  return value;
}
