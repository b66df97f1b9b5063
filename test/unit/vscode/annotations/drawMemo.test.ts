// What the painter and the Problems mirror remember between draws (src/vscode/annotations/drawMemo.ts):
// a redraw with the same input reuses what it built and sends nothing; any change of the list,
// the levels or the target sends again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DerivedMemo, LastSent } from '../../../../src/vscode/annotations/drawMemo';

test('a derived value is built once per source object and key, and again when either changes', () => {
  const memo = new DerivedMemo<number[], number>();
  let builds = 0;
  const sum = (xs: number[]) => () => (builds++, xs.reduce((a, b) => a + b, 0));
  const list = [1, 2, 3];
  assert.equal(memo.get(list, 'full', sum(list)), 6);
  assert.equal(memo.get(list, 'full', sum(list)), 6);
  assert.equal(builds, 1);
  assert.equal(memo.get(list, 'quiet', sum(list)), 6);
  assert.equal(builds, 2, 'another key (levels) builds again');
  const shifted = [2, 3, 4]; // an edit replaces the list
  assert.equal(memo.get(shifted, 'quiet', sum(shifted)), 9);
  assert.equal(builds, 3);
});

test('the same value for the same target and slot is not sent twice; another value, slot or target is', () => {
  const sent = new LastSent<object, readonly number[]>();
  const editor = {};
  const ranges = [1];
  const empty: number[] = [];
  assert.equal(sent.changed(editor, 'full/drift', ranges), true);
  assert.equal(sent.changed(editor, 'full/drift', ranges), false);
  assert.equal(sent.changed(editor, 'quiet/drift', empty), true, 'a slot never set is sent, even empty');
  assert.equal(sent.changed(editor, 'quiet/drift', empty), false);
  assert.equal(
    sent.changed(editor, 'full/drift', [1]),
    true,
    'an equal but new list is sent (lists are replaced, never changed)',
  );
  assert.equal(sent.changed({}, 'full/drift', ranges), true, 'an editor made anew starts with nothing');
  sent.forget(editor);
  assert.equal(sent.changed(editor, 'quiet/drift', empty), true, 'a forgotten target is sent everything again');
});
