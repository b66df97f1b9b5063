import { test } from 'node:test';
import assert from 'node:assert/strict';
import { neutraliseControls } from '../../../src/core/util/terminalText';

test('control characters become visible \\u escapes; tab and newline stay; CRLF becomes LF', () => {
  assert.equal(neutraliseControls('a\tb\nc\r\nd'), 'a\tb\nc\nd');
  assert.equal(neutraliseControls('\u001b]0;title\u0007'), '\\u001b]0;title\\u0007');
  assert.equal(neutraliseControls('over\rwrite'), 'over\\u000dwrite');
  assert.equal(
    neutraliseControls('8-bit CSI \u009b2J, DEL \u007f, NUL \u0000'),
    '8-bit CSI \\u009b2J, DEL \\u007f, NUL \\u0000',
  );
  assert.equal(neutraliseControls('abc\u202egnp.exe'), 'abc\\u202egnp.exe');
  assert.equal(neutraliseControls('ünïcødé ✓ 日本'), 'ünïcødé ✓ 日本');
});

test('JSON stays JSON: an escaped control character decodes back to itself', () => {
  const value = { text: 'x\u009by\u202ez' };
  const shown = neutraliseControls(JSON.stringify(value));
  assert.doesNotMatch(shown, /[\u009b\u202e]/);
  assert.deepEqual(JSON.parse(shown), value);
});
