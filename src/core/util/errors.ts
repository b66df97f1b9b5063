/**
 * An error caused by the user's input or environment, with a message written for a person.
 * The CLI prints only the message (no stack); VS Code shows it in a notification.
 * `kind` lets callers tell bad input from environment trouble without parsing text.
 */
export type UserErrorKind = 'input' | 'git' | 'environment' | 'state' | 'usage';

export class UserError extends Error {
  constructor(
    message: string,
    readonly kind: UserErrorKind = 'input',
    /** One line per problem (e.g. every schema violation of a chain file). */
    readonly details: readonly string[] = [],
  ) {
    super(message);
    this.name = 'UserError';
  }
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}

/**
 * The inputs an operation below the front ends can name in an error. Each front end has its own
 * words for them (the CLI a flag, VS Code a setting or a pick: src/cli/optionWords.ts,
 * src/vscode/optionWords.ts), so app, core and infra never write `--repo` into a message that a
 * VS Code user reads.
 */
export type OptionName =
  | 'agent'
  | 'agentName'
  | 'allowEmpty'
  | 'base'
  | 'chainId'
  | 'condition'
  | 'dir'
  | 'engine'
  | 'image'
  | 'instances'
  | 'mode'
  | 'out'
  | 'predictions'
  | 'repeats'
  | 'repo'
  | 'repoPathInImage'
  | 'split'
  | 'step';

/** A UserError about one input: `message` says what is wrong with it, without naming it the CLI's way. */
export class OptionError extends UserError {
  constructor(
    readonly option: OptionName,
    message: string,
    kind: UserErrorKind = 'usage',
    details: readonly string[] = [],
  ) {
    super(message, kind, details);
  }
}

export function isOptionError(e: unknown): e is OptionError {
  return e instanceof OptionError;
}
