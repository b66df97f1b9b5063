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

/**
 * A command made of subcommands (`chainlens sweci init`, `chainlens study submit`): it has no run
 * of its own; `chainlens <group> <sub> …` runs the subcommand and `chainlens <group> <sub> --help`
 * prints the subcommand's usage (commandGroup.ts, the one dispatch every level uses).
 */
export interface CliCommandGroup {
  readonly name: string;
  /** The group's usage for `chainlens <group> --help`: what it is for, and its subcommands. */
  readonly usage: string;
  readonly subcommands: readonly CliCommandEntry[];
}

/** A command or subcommand as its table lists it: its help line, and the module loaded only when it runs. */
export interface CliCommandEntry {
  readonly name: string;
  /** One line for the help of the level above (`chainlens --help`, `chainlens sweci --help`). */
  readonly summary: string;
  load(): Promise<CliCommand | CliCommandGroup>;
}
