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
