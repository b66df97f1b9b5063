// Errors raised below the front ends name the field, not a CLI flag: the same text reaches VS
// Code's pickers (Open Chain's Custom… authors, Study Results' repository), where no flag exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAuthorsSpec } from '../../../src/core/run/plan';
import { parseRepoSource } from '../../../src/infra/git/mirror';

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
};

test('an authors spec and a repository that is not there: the field named, no --flag', () => {
  for (const text of [
    message(() => parseAuthorsSpec('human,robot,human', 3)),
    message(() => parseAuthorsSpec('human', 3)),
    message(() => parseAuthorsSpec('7=human', 3)),
    message(() => parseRepoSource('no-such-folder-here', '/')),
  ]) {
    assert.doesNotMatch(text, /--\w/, text);
    assert.match(text, /authors|repository/, text);
  }
});
