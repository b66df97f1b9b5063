// The failure message of one test, cut from a real container log of the demo chain's step 1
// (test/fixtures/vscode/*.log were written by evaluateStep in chainlens/base:bookworm).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertionOperands, failureExcerpt, failureLine, splitTestId } from '../../../src/vscode/testing/logExcerpt';

const fixtures = join(__dirname, '../../fixtures/vscode');
const beforeFix = readFileSync(join(fixtures, 'pytest-step1-before-fix.log'), 'utf8');
const wrongSign = readFileSync(join(fixtures, 'pytest-wrong-sign.log'), 'utf8');

test('test ids split into file, name and the title pytest prints', () => {
  assert.deepEqual(splitTestId('tests/test_parse.py::test_parse_negative[minus-code]'), {
    file: 'tests/test_parse.py',
    name: 'test_parse_negative[minus-code]',
    pytestTitle: 'test_parse_negative[minus-code]',
  });
  assert.deepEqual(splitTestId('tests/t.py::TestParse::test_x'), {
    file: 'tests/t.py',
    name: 'test_x',
    pytestTitle: 'TestParse.test_x',
  });
  assert.equal(splitTestId('test_x (app.tests.ParseTests)').name, 'test_x');
});

test("a failing pytest test gets its own FAILURES section, not its neighbours'", () => {
  const excerpt = failureExcerpt(beforeFix, 'tests/test_parse.py::test_parse_negative[minus-code]')!;
  assert.match(excerpt, /^_+ test_parse_negative\[minus-code\] _+/);
  assert.match(excerpt, /ParseError: two currency markers in '-5\.00 USD'/);
  assert.doesNotMatch(excerpt, /minus-symbol\] _/);
  const last = failureExcerpt(beforeFix, 'tests/test_parse.py::test_parse_reads_back_accounting_format')!;
  assert.match(last, /test_parse_reads_back_accounting_format/);
  assert.doesNotMatch(last, /short test summary|PASSES/, 'stops at the next section');
});

test('a test with nothing specific in the log gets no excerpt', () => {
  assert.equal(failureExcerpt(beforeFix, 'tests/test_parse.py::test_parse_decimal'), undefined);
  assert.equal(failureExcerpt('', 'tests/x.py::test_y'), undefined);
});

test('unittest/Django blocks are cut at their separator lines', () => {
  const log = [
    'test_a (app.tests.T) ... FAIL',
    '',
    '======================================================================',
    'FAIL: test_a (app.tests.T)',
    '----------------------------------------------------------------------',
    'Traceback (most recent call last):',
    '  File "x.py", line 3',
    'AssertionError: 1 != 2',
    '',
    '----------------------------------------------------------------------',
    'Ran 1 test',
  ].join('\n');
  const excerpt = failureExcerpt(log, 'test_a (app.tests.T)')!;
  assert.match(excerpt, /^FAIL: test_a \(app\.tests\.T\)\nTraceback/);
  assert.match(excerpt, /AssertionError: 1 != 2$/);
});

test("a comparison gives the expected and actual values for a diff, from pytest's drill-down when the assert line is shortened", () => {
  const excerpt = failureExcerpt(wrongSign, 'tests/test_parse.py::test_parse_negative[minus-code]')!;
  assert.match(excerpt, /Money\(amount=\.\.\.urrency='USD'\) == Money\(amount=\.\.\.urrency='USD'\)/);
  assert.deepEqual(assertionOperands(excerpt), { actual: "Decimal('5.00')", expected: "Decimal('-5.00')" });
  assert.deepEqual(assertionOperands('E       assert 3 == 4'), { actual: '3', expected: '4' });
  assert.equal(
    assertionOperands(failureExcerpt(beforeFix, 'tests/test_parse.py::test_parse_negative[minus-code]')!),
    undefined,
    'an exception is not a comparison',
  );
});

test("a failed test's line in the log is its pytest section header (where double-clicking it goes)", () => {
  const id = 'tests/test_parse.py::test_parse_negative[minus-code]';
  const line = failureLine(beforeFix, id);
  assert.ok(line !== undefined);
  assert.match(beforeFix.split('\n')[line], /^_+ test_parse_negative\[minus-code\] _+$/);
  assert.equal(failureLine(beforeFix, 'tests/test_parse.py::test_not_in_this_log'), undefined);
});
