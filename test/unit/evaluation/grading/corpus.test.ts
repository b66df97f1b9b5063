// Real eval logs (scripts/make-log-corpus.sh: Debian's pydicom and sympy suites, Django's runner,
// CPython's unittest suite, run under SWE-bench's eval-script wrapping with injected library
// failures), graded under both harness versions. Expected values follow the harness's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  gradeLog,
  gradeLogExplained,
  inspectLog,
  parseTestLog,
  type GradingProfile,
  type LogParserName,
} from '../../../../src/core/evaluation/grading/index';
import { corpusLog, corpusTruth, expectedSummaryMap } from './corpusFixtures';

const T = 'pydicom/tests/test_corpus_pydicom.py::';
const PN = 'pydicom/tests/test_valuerep.py::TestPersonName::';
const DOE = `${T}test_family_name[Doe^John-Doe]`;
const SMITH = `${T}test_family_name[Smith^Jane Q-Smith]`;
const VAN_DER_BERG = `${T}test_family_name[van der Berg^Anna-van der Berg]`;
const VETERINARY = `${PN}test_from_named_components_veterinary`;
const LAST_FIRST = `${PN}test_last_first`;
const XFAILING = `${T}test_private_tag_keyword`;
const PROFILES: GradingProfile[] = ['swebench-v5', 'swebench-v4'];

function statusMap(log: string, parser: LogParserName, profile: GradingProfile): Map<string, string> {
  return inspectLog(log, parser, profile).statusMap;
}

function withoutSkipCounts(map: Map<string, string>): Map<string, string> {
  return new Map([...map].filter(([k]) => !/^\[\d+\]$/.test(k)));
}

// pytest-options shortens an absolute-path parameter to its basename.
const shortPathOption = (id: string) => id.replace('[/usr/share/dicom/CT_small.dcm]', '[/CT_small.dcm]');

for (const name of ['pydicom-rA-v5', 'pydicom-rA-v4', 'pydicom-gold-v5', 'pydicom-rA-vv-v5']) {
  test(`${name}: the -rA summary parsers read what pytest itself reported, ids cut at the first space`, () => {
    const log = corpusLog(name);
    const truth = corpusTruth(name);
    for (const profile of PROFILES) {
      const pytestMap = inspectLog(log, 'pytest', profile).statusMap;
      assert.deepEqual(withoutSkipCounts(pytestMap), expectedSummaryMap(truth), `${profile} pytest`);
      const optionsMap = inspectLog(log, 'pytest-options', profile).statusMap;
      assert.deepEqual(
        withoutSkipCounts(optionsMap),
        expectedSummaryMap(truth, shortPathOption),
        `${profile} pytest-options`,
      );
      const matplotlibMap = inspectLog(log, 'matplotlib', profile).statusMap;
      assert.deepEqual(matplotlibMap, pytestMap, `${profile} matplotlib`);
    }
  });
}

test('pydicom -rA: v4 turns the folded SKIPPED [N] summaries into tests named [1] and [3]; v5 drops them', () => {
  const log = corpusLog('pydicom-rA-v5');
  const v4 = statusMap(log, 'pytest', 'swebench-v4');
  assert.equal(v4.get('[1]'), 'SKIPPED');
  assert.equal(v4.get('[3]'), 'SKIPPED');
  const v5 = statusMap(log, 'pytest', 'swebench-v5');
  assert.deepEqual(
    [...v5.keys()].filter((k) => k.startsWith('[')),
    [],
  );
  // Skipped tests never appear under their own names in a -rA summary.
  assert.equal(v5.has(`${T}test_gdcm_decode`), false);
});

test('pydicom -rA (pydicom parser): ids with spaces are cut, so those F2P tests count as missing in both versions', () => {
  for (const name of ['pydicom-rA-v5', 'pydicom-rA-v4']) {
    for (const profile of PROFILES) {
      const grade = gradeLog({
        log: corpusLog(name),
        profile,
        parser: 'pytest-options',
        failToPass: [DOE, SMITH, VAN_DER_BERG],
        passToPass: [LAST_FIRST, VETERINARY],
      });
      assert.equal(grade.log_ok, true, `${name} ${profile}`);
      assert.equal(grade.status_map[`${T}test_family_name[Smith^Jane`], 'PASSED');
      assert.equal(grade.status_map[`${T}test_family_name[van`], 'FAILED');
      assert.deepEqual(grade.tests_status.FAIL_TO_PASS, { success: [DOE], failure: [SMITH, VAN_DER_BERG] });
      assert.deepEqual(grade.tests_status.PASS_TO_PASS, { success: [LAST_FIRST], failure: [VETERINARY] });
      assert.equal(grade.resolution, 'RESOLVED_NO');
    }
  }
});

test('pydicom gold run: a dataset id truncated at the space matches the cut key exactly; skipped and XPASS tests are missing', () => {
  const truncatedSmith = `${T}test_family_name[Smith^Jane`;
  const shortPath = `${T}test_path_option[/CT_small.dcm]`;
  for (const profile of PROFILES) {
    const grade = gradeLog({
      log: corpusLog('pydicom-gold-v5'),
      profile,
      parser: 'pytest-options',
      failToPass: [DOE, truncatedSmith],
      passToPass: [LAST_FIRST, XFAILING, shortPath],
    });
    assert.equal(grade.resolution, 'RESOLVED_FULL', profile);
    const withSkipped = gradeLog({
      log: corpusLog('pydicom-gold-v5'),
      profile,
      parser: 'pytest-options',
      failToPass: [DOE, `${T}test_gdcm_decode`],
      passToPass: [`${T}test_fixed_since`],
    });
    assert.deepEqual(withSkipped.tests_status.FAIL_TO_PASS, { success: [DOE], failure: [`${T}test_gdcm_decode`] });
    assert.deepEqual(withSkipped.tests_status.PASS_TO_PASS, { success: [], failure: [`${T}test_fixed_since`] });
    assert.equal(withSkipped.resolution, 'RESOLVED_NO');
  }
});

test('pydicom classic verbose (astropy style) with pytest-v2: v5 keeps whole ids, v4 cuts them at the first space', () => {
  const log = corpusLog('pydicom-classic-v5');
  const truth = corpusTruth('pydicom-classic-v5');
  const v5 = statusMap(log, 'pytest-v2', 'swebench-v5');
  for (const [nodeid, outcome] of Object.entries(truth)) {
    const expected = { passed: 'PASSED', failed: 'FAILED' }[outcome as 'passed' | 'failed'];
    if (expected) assert.equal(v5.get(nodeid), expected, nodeid);
    else assert.equal(v5.has(nodeid), false, `${nodeid} (${outcome}) has no status line of its own`);
  }
  // Only FAILED lines lose their " - message"; an XFAIL line keeps its reason in the id.
  assert.equal(v5.get(`${XFAILING} - private tags have no keyword`), 'XFAIL');
  assert.deepEqual(
    [...v5.keys()].filter((k) => k.startsWith('[')),
    [],
  );

  const v4 = statusMap(log, 'pytest-v2', 'swebench-v4');
  assert.equal(v4.get(`${T}test_family_name[Smith^Jane`), 'PASSED');
  assert.equal(v4.get(`${T}test_family_name[van`), 'FAILED');
  assert.equal(v4.has(SMITH), false);
  assert.equal(v4.get(XFAILING), 'XFAIL');
  assert.equal(v4.get('[3]'), 'SKIPPED');

  const input = {
    log,
    parser: 'pytest-v2' as const,
    failToPass: [SMITH, `${T}test_family_name[Smith^Jane Q`, `${T}test_family_name[van der Berg`],
    passToPass: [DOE, LAST_FIRST],
  };
  const graded5 = gradeLog({ ...input, profile: 'swebench-v5' });
  // The two truncated ids resolve by prefix: one to a PASSED test, one to a FAILED one.
  assert.deepEqual(graded5.tests_status.FAIL_TO_PASS, {
    success: [SMITH, `${T}test_family_name[Smith^Jane Q`],
    failure: [`${T}test_family_name[van der Berg`],
  });
  assert.equal(graded5.resolution, 'RESOLVED_PARTIAL');
  const graded4 = gradeLog({ ...input, profile: 'swebench-v4' });
  assert.deepEqual(graded4.tests_status.FAIL_TO_PASS.success, []);
  assert.equal(graded4.resolution, 'RESOLVED_NO');
});

test('pydicom classic verbose: a truncated id whose matches disagree (PASSED and FAILED) is a failure in v5', () => {
  const grade = gradeLog({
    log: corpusLog('pydicom-classic-v5'),
    profile: 'swebench-v5',
    parser: 'pytest-v2',
    failToPass: [`${T}test_family_name[`, `${T}test_tag_parts[`],
    passToPass: [],
  });
  assert.deepEqual(grade.tests_status.FAIL_TO_PASS, {
    success: [`${T}test_tag_parts[`],
    failure: [`${T}test_family_name[`],
  });
});

const DJ = (test: string, cls: string) => `${test} (${cls}.${test})`;
const COUNT = DJ('test_count', 'shelf.tests.BookModelTests');
const POSTGRES = DJ('test_postgres_only', 'shelf.tests.BookModelTests');
const SLUG = DJ('test_slug_is_derived_from_title', 'shelf.tests.BookModelTests');
const REMOTE = DJ('test_remote_filename', 'textops.tests.FilenameTests');
const CAPFIRST = DJ('test_capfirst', 'textops.tests.CapfirstTests');
const FILENAME = DJ('test_get_valid_filename', 'textops.tests.FilenameTests');
const KNOWN_BUG = DJ('test_truncate_html_known_bug', 'textops.tests.TruncatorTests');

test('django runner --verbosity 2: verdicts on the same line, on a later line, headers, skips', () => {
  for (const name of ['django-v5', 'django-v4']) {
    const map = statusMap(corpusLog(name), 'django', 'swebench-v5');
    assert.equal(map.get(COUNT), 'PASSED');
    assert.equal(map.get(POSTGRES), 'SKIPPED');
    assert.equal(map.get(REMOTE), 'SKIPPED');
    assert.equal(map.get(CAPFIRST), 'FAILED');
    assert.equal(map.get(FILENAME), 'ERROR');
    // "Internal Server Error" and a stderr warning push the verdict to a line of its own.
    assert.equal(map.get(DJ('test_broken_view_is_a_500', 'shelf.tests.BookViewTests')), 'PASSED');
    assert.equal(map.get(DJ('test_warning_printed_mid_line', 'shelf.tests.BookViewTests')), 'PASSED');
    // `FAIL: name (...)` headers record the first word only.
    assert.equal(map.get('test_capfirst'), 'FAILED');
    assert.equal(map.get('test_title_view_capitalises'), 'FAILED');
    assert.equal(map.get('test_get_valid_filename'), 'ERROR');
    // "expected failure" is no verdict the parser knows.
    assert.equal(map.has(KNOWN_BUG), false);
    assert.equal(map.size, 20);
  }
});

test('django: a skipped F2P test is a failure in v5 and counts in neither list in v4; a skipped P2P test is kept in v5', () => {
  for (const name of ['django-v5', 'django-v4']) {
    const input = {
      log: corpusLog(name),
      parser: 'django' as const,
      failToPass: [COUNT, POSTGRES],
      passToPass: [SLUG, REMOTE],
    };
    const v5 = gradeLog({ ...input, profile: 'swebench-v5' });
    assert.deepEqual(v5.tests_status.FAIL_TO_PASS, { success: [COUNT], failure: [POSTGRES] });
    assert.deepEqual(v5.tests_status.PASS_TO_PASS, { success: [SLUG, REMOTE], failure: [] });
    assert.equal(v5.resolution, 'RESOLVED_PARTIAL');
    const v4 = gradeLog({ ...input, profile: 'swebench-v4' });
    assert.deepEqual(v4.tests_status.FAIL_TO_PASS, { success: [COUNT], failure: [] });
    assert.deepEqual(v4.tests_status.PASS_TO_PASS, { success: [SLUG], failure: [] });
    assert.equal(v4.resolution, 'RESOLVED_FULL');
  }
});

test('django fail_only: only FAILED fails; ERROR and missing tests succeed', () => {
  for (const profile of PROFILES) {
    const grade = gradeLog({
      log: corpusLog('django-v5'),
      profile,
      parser: 'django',
      failToPass: [CAPFIRST, FILENAME, KNOWN_BUG],
      passToPass: [COUNT],
      evalType: 'fail_only',
    });
    assert.deepEqual(grade.tests_status.FAIL_TO_PASS, { success: [FILENAME, KNOWN_BUG], failure: [CAPFIRST] });
    assert.equal(grade.resolution, 'RESOLVED_PARTIAL');
  }
});

test('unittest -v (graded with the django parser)', () => {
  const map = statusMap(corpusLog('unittest-v5'), 'django', 'swebench-v5');
  const statuses = [...map.values()];
  assert.equal(statuses.filter((s) => s === 'PASSED').length, 61);
  assert.equal(map.get('test_whitespace (test_textwrap.ShortenTestCase.test_whitespace)'), 'FAILED');
  assert.equal(map.get('test_whitespace'), 'FAILED');
  assert.equal(map.get('test_roundtrip_tabs (test_textwrap.IndentTestCase.test_roundtrip_tabs)'), 'ERROR');
  const grade = gradeLog({
    log: corpusLog('unittest-v5'),
    profile: 'swebench-v5',
    parser: 'django',
    failToPass: ['test_whitespace (test_textwrap.ShortenTestCase.test_whitespace)'],
    passToPass: ['test_subsequent_indent (test_textwrap.IndentTestCases.test_subsequent_indent)'],
  });
  assert.equal(grade.log_ok, true);
  assert.deepEqual(grade.tests_status.PASS_TO_PASS.success, [
    'test_subsequent_indent (test_textwrap.IndentTestCases.test_subsequent_indent)',
  ]);
  assert.equal(grade.resolution, 'RESOLVED_NO');
});

test('sympy bin/test --verbose: ok/F/E lines, failure banners, and lines the parser cannot read', () => {
  const map = statusMap(corpusLog('sympy-bintest-v5'), 'sympy', 'swebench-v5');
  assert.equal(map.get('test_flatten_levels'), 'PASSED');
  assert.equal(map.get('test_rotate_left_basic'), 'FAILED');
  assert.equal(map.get('test_partitions_count'), 'ERROR');
  assert.equal(map.get('test_partitions'), 'ERROR');
  // Every banner marks path.py:name FAILED, exceptions included.
  assert.equal(map.get('sympy/utilities/tests/test_iterables.py:test_partitions'), 'FAILED');
  assert.equal(map.get('sympy/utilities/tests/test_corpus_sympy.py:test_rotate_roundtrip'), 'FAILED');
  // The last test of a failing file ends with "[FAIL]", and sympy's f/s verdicts are not read.
  assert.equal(map.has('test_iterable'), false);
  assert.equal(map.has('test_flatten_strings_known_issue'), false);
  assert.equal(map.has('test_needs_network'), false);
  assert.equal([...map.values()].filter((s) => s === 'PASSED').length, 40);
  assert.equal([...map.values()].filter((s) => s === 'FAILED').length, 6 + 8);
  for (const profile of PROFILES) {
    const grade = gradeLog({
      log: corpusLog('sympy-bintest-v5'),
      profile,
      parser: 'sympy',
      failToPass: ['test_flatten_levels', 'test_partitions_count'],
      passToPass: ['test_flatten', 'test_ibin'],
    });
    assert.equal(grade.resolution, 'RESOLVED_PARTIAL', profile);
  }
});

test('pydicom with a setup ERROR and the seaborn parser: v5 rejects the log (exit 1, no failure read), v4 grades it', () => {
  const log = corpusLog('pydicom-errors-v5');
  const echo = 'pydicom/tests/test_corpus_pydicom_errors.py::test_echo';
  const keyword = 'pydicom/tests/test_corpus_pydicom_errors.py::test_tag_from_keyword';
  const input = { log, parser: 'seaborn' as const, failToPass: [keyword], passToPass: [LAST_FIRST] };
  const v5 = gradeLogExplained({ ...input, profile: 'swebench-v5' });
  assert.equal(v5.grade.log_ok, false);
  assert.equal(v5.problem?.kind, 'exit-code-contradicts-log');
  assert.deepEqual(v5.grade.status_map, {});
  assert.equal(v5.grade.resolution, 'RESOLVED_NO');
  const v4 = gradeLog({ ...input, profile: 'swebench-v4' });
  assert.equal(v4.log_ok, true);
  assert.equal(v4.status_map[echo], undefined);
  assert.equal(v4.resolution, 'RESOLVED_FULL');
  // The pytest parser does read the ERROR, so v5 accepts the same log with it.
  const pytest5 = gradeLog({ ...input, profile: 'swebench-v5', parser: 'pytest' });
  assert.equal(pytest5.log_ok, true);
  assert.equal(pytest5.status_map[echo], 'ERROR');
  assert.equal(pytest5.resolution, 'RESOLVED_FULL');
});

test('a command that prints its own PASSED line and exits 1: v5 rejects it, v4 is fooled', () => {
  const forged = `${T}test_forged`;
  const input = { log: corpusLog('spoof-v5'), parser: 'pytest' as const, failToPass: [forged], passToPass: [] };
  const v5 = gradeLogExplained({ ...input, profile: 'swebench-v5' });
  assert.equal(v5.problem?.kind, 'exit-code-contradicts-log');
  assert.equal(v5.grade.resolution, 'RESOLVED_NO');
  assert.equal(gradeLog({ ...input, profile: 'swebench-v4' }).resolution, 'RESOLVED_FULL');
});

test('pytest "ERROR: file or directory not found": the pytest parser records a test named "file" with status "ERROR:"', () => {
  const log = corpusLog('pydicom-notfound-v5');
  const v4 = gradeLog({ log, profile: 'swebench-v4', parser: 'pytest', failToPass: [], passToPass: [] });
  assert.deepEqual(v4.status_map, { file: 'ERROR:' });
  assert.equal(v4.resolution, 'RESOLVED_FULL');
  // "ERROR:" is not "ERROR", so v5 sees exit code 4 with no failure and rejects the log.
  const v5 = gradeLogExplained({ log, profile: 'swebench-v5', parser: 'pytest', failToPass: [], passToPass: [] });
  assert.equal(v5.problem?.kind, 'exit-code-contradicts-log');
});

test('a run where every test was deselected: v5 says no suite ran; v4 grades an empty map', () => {
  const log = corpusLog('pydicom-deselected-v5');
  const v5 = gradeLogExplained({ log, profile: 'swebench-v5', parser: 'pytest', failToPass: [DOE], passToPass: [] });
  assert.equal(v5.problem?.kind, 'no-tests-ran');
  const v4 = gradeLog({ log, profile: 'swebench-v4', parser: 'pytest', failToPass: [DOE], passToPass: [] });
  assert.equal(v4.log_ok, true);
  assert.deepEqual(v4.status_map, {});
  assert.deepEqual(v4.tests_status.FAIL_TO_PASS, { success: [], failure: [DOE] });
  assert.equal(
    gradeLog({ log, profile: 'swebench-v4', parser: 'pytest', failToPass: [], passToPass: [] }).resolution,
    'RESOLVED_FULL',
  );
});

test('timed-out, apply-failed and reset-failed runs are unusable in both versions', () => {
  const cases: [string, string][] = [
    ['pydicom-timeout-v5', 'timed-out'],
    ['apply-failed', 'patch-apply-failed'],
    ['reset-failed', 'reset-failed'],
  ];
  for (const [name, kind] of cases) {
    for (const profile of PROFILES) {
      const r = gradeLogExplained({
        log: corpusLog(name),
        profile,
        parser: 'pytest',
        failToPass: [DOE],
        passToPass: [LAST_FIRST],
      });
      assert.equal(r.problem?.kind, kind, `${name} ${profile}`);
      assert.equal(r.grade.log_ok, false);
      assert.deepEqual(r.grade.tests_status.FAIL_TO_PASS, { success: [], failure: [DOE] });
      assert.equal(r.grade.resolution, 'RESOLVED_NO');
    }
  }
  // The timed-out log did print PASSED lines before it was killed; they are not graded.
  assert.ok(Object.keys(parseTestLog(corpusLog('pydicom-timeout-v5'), 'pytest', 'swebench-v5')).includes(DOE));
});
