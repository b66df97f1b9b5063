// The texts the viewer and `chainlens trajectory` both show come from one place
// (src/core/trajectories/present): the same ranges, clipped the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clip, rangeList, rangesText } from '../../../src/core/trajectories/present/text';
import { filesLine } from '../../../src/core/trajectories/present/stepText';

const ranges = [
  { start: 1, end: 3 },
  { start: 5, end: 5 },
  { start: 9, end: 12 },
  { start: 20, end: 21 },
];

test('line ranges: the viewer row and the CLI table write the same ranges, each with its separator', () => {
  assert.equal(rangesText(ranges), ' 1-3, 5, 9-12, …');
  assert.equal(rangeList(ranges, ','), '1-3,5,9-12,…');
  assert.equal(rangesText([]), '');
  assert.equal(
    filesLine([{ path: 'src/a.py', access: 'edit', ranges, snapshot: null } as never]),
    'src/a.py:1-3,5,9-12,…',
  );
});

test('clip keeps `max` characters, the last an ellipsis, and leaves short text alone', () => {
  assert.equal(clip('abcdef', 4), 'abc…');
  assert.equal(clip('abcd', 4), 'abcd');
});
