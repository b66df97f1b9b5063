/**
 * The harness's parser raised (an IndexError on a line it did not expect). The harness then
 * writes no report for the instance; ChainLens reports the log as unusable.
 */
export class ParserCrash extends Error {
  constructor(
    readonly parser: string,
    readonly line: string,
  ) {
    super(`the ${parser} parser of the harness fails on the line ${JSON.stringify(line)} (IndexError)`);
    this.name = 'ParserCrash';
  }
}
