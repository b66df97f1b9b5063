// The StepSpec of a chain step, built without Docker: every dataset rule that picks how a step is
// run and graded, in one function (src/core/evaluation/stepSpec.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Chain, ChainStep } from '../../../src/protocol/chain';
import { isOptionError, isUserError } from '../../../src/core/util/errors';
import { logParserFor, repoPathChoice, stepSpecFor } from '../../../src/core/evaluation/stepSpec';

const testPatch = (file: string) =>
  `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-old\n+new\n`;

function step(order: number, fields: Partial<ChainStep> = {}): ChainStep {
  return {
    order,
    instanceId: `owner__repo-${order}`,
    problemStatement: 'p',
    goldPatch: '',
    testPatch: testPatch(`tests/test_${order}.py`),
    failToPass: [`tests/test_${order}.py::test_fix`],
    passToPass: [`tests/test_${order}.py::test_old`],
    testCmd: 'pytest -rA',
    ...fields,
  };
}

function chain(repo: string, steps: ChainStep[], fields: Partial<Chain> = {}): Chain {
  return { id: 'c', repo, baseCommit: 'abcdef1234', dockerImage: 'img:1', format: 'chainswe', steps, ...fields };
}

test("a step's spec: its own F2P/P2P, the test patches of steps 1..k once each, the chain's image and base", () => {
  const shared = testPatch('tests/test_shared.py');
  const c = chain('owner/repo', [step(1, { testPatch: shared }), step(2, { testPatch: shared }), step(3)]);
  const spec = stepSpecFor(c, 2);
  assert.equal(spec.order, 3);
  assert.equal(spec.instanceId, 'owner__repo-3');
  assert.deepEqual(spec.testPatches, [shared, c.steps[2].testPatch]);
  assert.deepEqual(spec.failToPass, ['tests/test_3.py::test_fix']);
  assert.deepEqual(spec.passToPass, ['tests/test_3.py::test_old']);
  assert.equal(spec.image, 'img:1');
  assert.equal(spec.baseCommit, 'abcdef1234');
  assert.equal(spec.testCmd, 'pytest -rA');
  assert.deepEqual(spec.repoPath, { kind: 'detect' });
  assert.equal(spec.profile, 'swebench-v5');
  assert.equal(spec.harness, 'v5');
  assert.equal(spec.grading, 'resolve');
  // An override image and placement, and the v4 profile, reach the spec.
  const v4 = stepSpecFor(c, 0, { image: 'other:2', repoPath: repoPathChoice(null), profile: 'swebench-v4' });
  assert.deepEqual([v4.image, v4.repoPath, v4.harness], ['other:2', { kind: 'copy-in' }, 'v4']);
  assert.deepEqual(stepSpecFor(c, 0, { repoPath: repoPathChoice('/testbed') }).repoPath, {
    kind: 'at',
    path: '/testbed',
  });
});

test("a dataset's own log parser and eval type win over the repository's; the parser picks the script's shape", () => {
  // psf/requests is mapped to pytest-options by the harness; chartjs/Chart.js is fail-only.
  assert.equal(stepSpecFor(chain('psf/requests', [step(1)]), 0).parser, 'pytest-options');
  const own = stepSpecFor(chain('psf/requests', [step(1, { logParser: 'gotest', evalType: 'fail_only' })]), 0);
  assert.deepEqual([own.parser, own.evalType, own.scriptShape], ['gotest', 'fail_only', 'common']);
  const chart = stepSpecFor(chain('chartjs/Chart.js', [step(1)]), 0);
  assert.equal(chart.evalType, 'fail_only');
  assert.equal(
    stepSpecFor(chain('chartjs/Chart.js', [step(1, { evalType: 'pass_and_fail' })]), 0).evalType,
    'pass_and_fail',
  );
  // An unmapped repository is graded with pytest, in the Python shape.
  const plain = stepSpecFor(chain('someone/else', [step(1)]), 0);
  assert.deepEqual([plain.parser, plain.evalType, plain.scriptShape], ['pytest', 'pass_and_fail', 'python']);
  // The same rule serves `chainlens grade`: --parser is the log's own.
  assert.equal(logParserFor('tap', 'psf/requests'), 'tap');
  assert.equal(logParserFor(undefined, 'psf/requests'), 'pytest-options');
  assert.equal(logParserFor(undefined, undefined), 'pytest');
});

test("a step's own build command and grading rule reach the spec; an empty build command means none", () => {
  const c = chain('owner/repo', [step(1, { buildCmd: 'make', grading: 'pr1-filter' }), step(2, { buildCmd: '  ' })]);
  assert.equal(stepSpecFor(c, 0).buildCmd, 'make');
  assert.equal(stepSpecFor(c, 0).grading, 'pr1-filter');
  assert.equal(stepSpecFor(c, 1).buildCmd, undefined);
  assert.equal('buildCmd' in stepSpecFor(c, 1), false);
});

test('a step ChainLens cannot run is refused with a message naming what is missing', () => {
  const noImage = chain('owner/repo', [step(1)], { dockerImage: null });
  assert.throws(
    () => stepSpecFor(noImage, 0),
    (e) => isOptionError(e) && e.option === 'image' && /chain 'c' names no docker_image/.test(e.message),
  );
  assert.equal(stepSpecFor(noImage, 0, { image: 'given:1' }).image, 'given:1');
  const pro = chain('owner/repo', [step(1, { testCmd: null, testFiles: ['tests/test_a.py'] })]);
  assert.throws(
    () => stepSpecFor(pro, 0),
    (e) => isUserError(e) && /SWE-bench Pro instance/.test(e.message),
  );
});
