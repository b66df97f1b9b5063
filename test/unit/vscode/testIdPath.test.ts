// The Testing view's reading of test ids, on ids the parsers produce from the real corpus logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testIdPath, testItemLabel, truncatedIdNote } from '../../../src/vscode/testing/testIdPath';
import { harnessTruth } from '../evaluation/grading/multilingualFixtures';

const truth = harnessTruth().results['swebench-v5'];
const idsOf = (key: string) => truth[key].parse!.map!.map(([id]) => id);

test('Go subtests nest under their parent test, at every level', () => {
  const ids = idsOf('go-bug-v5|gotest');
  assert.ok(ids.includes('TestScaleKeepsArea/outer/inner_(nested)'));
  assert.deepEqual(testIdPath('TestScaleKeepsArea/outer/inner_(nested)', 'gotest'), {
    path: ['TestScaleKeepsArea', 'outer'],
    name: 'inner_(nested)',
  });
  assert.equal(testItemLabel('TestScale/double_width', 'gotest'), 'TestScale › double_width');
  assert.equal(testItemLabel('TestArea', 'gotest'), 'TestArea');
  // Without the parser, a Go subtest id is still recognised.
  assert.deepEqual(testIdPath('TestScale/zero_factor'), { path: ['TestScale'], name: 'zero_factor' });
});

test('jest --json, vitest, PHPUnit and doctest ids nest on " > "; jest console ids on " › "', () => {
  assert.ok(idsOf('jest-json-bug-v5|jest-json').includes('capitalize > unicode > handles accents'));
  assert.deepEqual(testIdPath('capitalize > unicode > handles accents', 'jest-json'), {
    path: ['capitalize', 'unicode'],
    name: 'handles accents',
  });
  assert.equal(
    testItemLabel('vitest/strings.test.mjs > slugify > handles accents', 'vitest'),
    'vitest/strings.test.mjs › slugify › handles accents',
  );
  assert.deepEqual(testIdPath('Money > Splits evenly with data set "three ways"', 'phpunit'), {
    path: ['Money'],
    name: 'Splits evenly with data set "three ways"',
  });
  assert.ok(idsOf('doctest-bug-v5|doctest').includes('sum > positive & negative'));
  assert.deepEqual(testIdPath('capitalize › leaves an empty string alone'), {
    path: ['capitalize'],
    name: 'leaves an empty string alone',
  });
});

test('JUnit ids: Class#method (Maven, ant), Class.method, and Gradle\'s "Class > method"', () => {
  assert.ok(idsOf('maven-bug-v5|maven').includes('corpus.CalcTest#percentRoundsDown'));
  assert.deepEqual(testIdPath('corpus.CalcTest#percentRoundsDown', 'maven'), {
    path: ['corpus.CalcTest'],
    name: 'percentRoundsDown',
  });
  assert.deepEqual(testIdPath('com.google.gson.JsonPrimitiveTest.testEquals', 'maven'), {
    path: ['com.google.gson.JsonPrimitiveTest'],
    name: 'testEquals',
  });
  assert.equal(
    testItemLabel('io.reactivex.rxjava3.ObservableSwitchTest > switchWithError', 'gradle-custom'),
    'io.reactivex.rxjava3.ObservableSwitchTest › switchWithError',
  );
  assert.deepEqual(testIdPath('corpus.CalcTest#addsTwoNumbers'), { path: ['corpus.CalcTest'], name: 'addsTwoNumbers' });
});

test('GoogleTest Suite.Test (parametrised suites keep their prefix), cargo modules, minitest classes', () => {
  // A failing parametrised test's id carries GoogleTest's ", where GetParam() = 2" (the line's own text).
  assert.ok(idsOf('gtest-bug-v5|googletest').includes('Small/RangeParamTest.Contains/2, where GetParam() = 2'));
  assert.deepEqual(testIdPath('Small/RangeParamTest.Contains/1', 'googletest'), {
    path: ['Small/RangeParamTest'],
    name: 'Contains/1',
  });
  assert.ok(idsOf('cargo-bug-v5|cargo').includes('tests::running_balance::follows_each_entry'));
  assert.deepEqual(testIdPath('tests::running_balance::follows_each_entry', 'cargo'), {
    path: ['tests', 'running_balance'],
    name: 'follows_each_entry',
  });
  assert.equal(
    testItemLabel('TestInventory#test_: an inventory should keep other items', 'minitest'),
    'TestInventory › test_: an inventory should keep other items',
  );
});

test('calypso and lighthouse join suites with " - "; without the parser a title with " - " stays whole', () => {
  assert.deepEqual(testIdPath('capitalize - unicode - handles accents', 'calypso'), {
    path: ['capitalize', 'unicode'],
    name: 'handles accents',
  });
  assert.deepEqual(testIdPath('refuses to go negative - failed'), {
    path: [],
    name: 'refuses to go negative - failed',
  });
});

test('Python ids keep the short name the Testing view always showed; :: inside parameters does not split', () => {
  assert.equal(testItemLabel('tests/test_parse.py::TestX::test_y[a::b]', 'pytest'), 'test_y[a::b]');
  assert.equal(
    testItemLabel('tests/test_parse.py::test_parse_negative[minus-code]'),
    'test_parse_negative[minus-code]',
  );
  assert.deepEqual(testIdPath('test_capfirst (textops.tests.CapfirstTests.test_capfirst)', 'django'), {
    path: ['textops.tests.CapfirstTests'],
    name: 'test_capfirst',
  });
  assert.equal(testItemLabel('test_capfirst (textops.tests.CapfirstTests)', 'django'), 'test_capfirst');
});

test('an id cut at a space by the pytest parser says so; a whole id says nothing', () => {
  assert.equal(
    truncatedIdNote('tests/test_parse.py::test_parse_amount[12.00'),
    "cut at a space (the id as the harness's log parser records it): test_parse_amount[12.00",
  );
  assert.equal(truncatedIdNote('tests/test_parse.py::test_parse_amount[$1,234.50-USD-1234.50]'), undefined);
  assert.equal(truncatedIdNote('TestScaleKeepsArea/outer/inner_(nested)'), undefined);
});
