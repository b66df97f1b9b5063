import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../core/util/didYouMean';
import { UserError } from '../core/util/errors';

type Options = NonNullable<ParseArgsConfig['options']>;

/** How many positional arguments a command takes, and what to say when one is missing. */
export interface PositionalSpec {
  min: number;
  max: number;
  /** e.g. "expected one chain file". */
  missing?: string;
}

const NONE: PositionalSpec = { min: 0, max: 0 };

function usageError(text: string, usage: string): UserError {
  return new UserError(`${text}\n\n${usage}`, 'usage');
}

/**
 * parseArgs with errors a person can act on (exit code 2, the usage shown). Every command's
 * arguments are checked here, before it does anything: unknown options, a flag given twice
 * (which one would win is a guess), an option with an empty value, and positional arguments
 * beyond what the command takes (by default none) are refused.
 */
export function parseCommandArgs<O extends Options>(
  argv: string[],
  options: O,
  usage: string,
  positionals: PositionalSpec = NONE,
) {
  refuseUnknownFlags(argv, options, usage);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    throw usageError(flagProblem(e as Error & { code?: string }), usage);
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name) && !options[token.name]?.multiple)
      throw usageError(`option --${token.name} is given more than once`, usage);
    seen.add(token.name);
    if (token.value === '') throw usageError(`option --${token.name} needs a value`, usage);
  }
  const count = parsed.positionals.length;
  if (count > positionals.max) throw usageError(`unexpected argument '${parsed.positionals[positionals.max]}'`, usage);
  if (count < positionals.min) throw usageError(positionals.missing ?? 'missing argument', usage);
  return { values: parsed.values, positionals: parsed.positionals };
}

/**
 * A flag the command does not take, named as typed with the nearest one it does take: Node's own
 * message ("Unknown option '--chain-idd'. To specify a positional argument starting with a '-',
 * place it at the end…") tells a person nothing they can act on (issue: a mistyped flag).
 */
function refuseUnknownFlags(argv: string[], options: Options, usage: string): void {
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  const known = Object.keys(options).map((name) => `--${name}`);
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name in options) continue;
    const typed = token.rawName.startsWith('--') ? `--${token.name}` : token.rawName;
    throw usageError(`unknown flag ${typed}${didYouMean(typed, known)}`, usage);
  }
}

/** parseArgs's other complaints, in the CLI's words. */
function flagProblem(e: Error & { code?: string }): string {
  const flag = /'(--?[^' ]+)/.exec(e.message)?.[1];
  if (flag && e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return /argument missing/.test(e.message) ? `flag ${flag} needs a value` : `flag ${flag} takes no value`;
  return e.message;
}

export function requireOption(value: string | undefined, flag: string, usage: string): string {
  if (value === undefined || value === '') throw new UserError(`missing required option ${flag}\n\n${usage}`, 'usage');
  return value;
}

/** checkout, replay, eval and validate take one chain file. */
/** The options every command that starts a run of one chain takes (checkout, replay, eval). */
export const CHAIN_RUN_OPTIONS = {
  repo: { type: 'string' },
  dir: { type: 'string' },
  mode: { type: 'string' },
  predictions: { type: 'string' },
  'chain-id': { type: 'string' },
  instances: { type: 'string' },
} as const;

export const ONE_CHAIN_FILE: PositionalSpec = { min: 1, max: 1, missing: 'expected one chain file' };

/** `--timeout <seconds>`: a positive number, or undefined when not given. */
export function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UserError(`--timeout must be a positive number of seconds, not '${value}'`, 'usage');
  return n;
}
