/**
 * The harness's parser raised (an IndexError on a line it did not expect, a ValueError for an
 * instance it has no runner for, a JSON or XML error on a report it tried to read). The harness
 * then writes no report for the instance; ChainLens reports the log as unusable.
 */
export class ParserCrash extends Error {
  constructor(
    readonly parser: string,
    /** The line or text the harness failed on. */
    readonly line: string,
    /** The Python exception the harness raises there. */
    readonly pythonError = 'IndexError',
  ) {
    super(`the ${parser} parser of the harness fails on ${describe(line)} (${pythonError})`);
    this.name = 'ParserCrash';
  }
}

function describe(line: string): string {
  const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line;
  return `the line ${JSON.stringify(shown)}`;
}
