import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failureSections, gapEntries, headlineOf, readTestLog } from '../../../src/core/sweci';

// The shape of a real `pytest -rA --tb=short` log (pytest 7), trimmed.
const LOG = `============================= test session starts ==============================
collected 4 items

tests/test_calc.py .F.E                                                  [100%]

==================================== ERRORS ====================================
____________________ ERROR at setup of test_div_zero ____________________
tests/test_calc.py:20: in fixture
    raise RuntimeError("no fixture")
E   RuntimeError: no fixture
=================================== FAILURES ===================================
__________________________ TestCalc.test_mul[2-3] ___________________________
tests/test_calc.py:12: in test_mul
    assert mul(2, 3) == 6
E   assert 5 == 6
==================================== PASSES ====================================
=========================== short test summary info ============================
PASSED tests/test_calc.py::test_add
PASSED tests/test_calc.py::test_sub
FAILED tests/test_calc.py::TestCalc::test_mul[2-3] - assert 5 == 6
ERROR tests/test_calc.py::test_div_zero - RuntimeError: no fixture
==================== 1 failed, 2 passed, 1 error in 0.05s =====================
`;

test('passing and failing tests of a -rA log', () => {
  const got = readTestLog(LOG);
  assert.deepEqual(got.passed, ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_sub']);
  assert.deepEqual(got.failed, ['tests/test_calc.py::TestCalc::test_mul[2-3]', 'tests/test_calc.py::test_div_zero']);
});

test('failure sections by pytest headline', () => {
  const sections = failureSections(LOG);
  assert.equal(headlineOf('tests/test_calc.py::TestCalc::test_mul[2-3]'), 'TestCalc.test_mul[2-3]');
  assert.match(sections.get('TestCalc.test_mul[2-3]')!, /E {3}assert 5 == 6/);
  assert.match(sections.get('ERROR at setup of test_div_zero')!, /RuntimeError: no fixture/);
  assert.equal(sections.size, 2);
});

test('gap entries: how each test ended, why, and its output; a test not run says so', () => {
  const entries = gapEntries(
    ['tests/test_calc.py::TestCalc::test_mul[2-3]', 'tests/test_calc.py::test_div_zero', 'tests/test_new.py::test_x'],
    LOG,
  );
  assert.equal(entries[0].description, 'Test failed. Reason: assert 5 == 6');
  assert.match(entries[0].output!, /assert mul\(2, 3\) == 6/);
  assert.equal(entries[1].description, 'Test errored. Reason: RuntimeError: no fixture');
  assert.match(entries[1].output!, /no fixture/);
  assert.match(entries[2].description, /not collected or did not run/);
  assert.equal(entries[2].output, null);
});
