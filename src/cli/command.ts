/** One `chainlens <name>` subcommand. Each lives in its own file under src/cli/commands/. */
export interface CliIO {
  out(text: string): void;
  /** Raw text, no newline added: output too long for one string, in pieces (stdout only). */
  write?(text: string): void;
  err(text: string): void;
  readonly cwd: string;
}

export interface CliCommand {
  readonly name: string;
  /** Full usage text for `chainlens <name> --help`. */
  readonly usage: string;
  /** Returns the process exit code. Throw UserError for problems a person must fix. */
  run(argv: string[], io: CliIO): Promise<number>;
}

/** A command as the registry lists it: its help line, and the module loaded only when it runs. */
export interface CliCommandEntry {
  readonly name: string;
  /** One line for `chainlens --help`. */
  readonly summary: string;
  load(): Promise<CliCommand>;
}
