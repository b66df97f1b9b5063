// SWE-bench Multilingual instances (SWE-bench's fields plus the newer log_parser / eval_type /
// eval_script) and SWE-bench Pro instances (its own fields, as ScaleAI/SWE-bench_Pro publishes
// them and swe_bench_pro_eval.py reads them) normalised into a Chain; bad input named by file and path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadChain } from '../../../src/core/formats/loadChain';
import { UserError } from '../../../src/core/util/errors';

const PATCH = 'diff --git a/shapes.go b/shapes.go\n--- a/shapes.go\n+++ b/shapes.go\n@@ -1 +1 @@\n-a\n+b\n';
const TEST_PATCH =
  'diff --git a/shapes_test.go b/shapes_test.go\n--- a/shapes_test.go\n+++ b/shapes_test.go\n@@ -1 +1 @@\n-a\n+b\n';

function multilingual(overrides: Record<string, unknown> = {}) {
  return {
    repo: 'gin-gonic/gin',
    instance_id: 'gin-gonic__gin-3741',
    base_commit: 'c'.repeat(40),
    patch: PATCH,
    test_patch: TEST_PATCH,
    problem_statement: 'colours are lost',
    hints_text: '',
    created_at: '2023-10-01T00:00:00Z',
    version: '3741',
    FAIL_TO_PASS: '["TestColor/plain"]',
    PASS_TO_PASS: '["TestColor"]',
    environment_setup_commit: 'c'.repeat(40),
    ...overrides,
  };
}

function pro(overrides: Record<string, unknown> = {}) {
  return {
    repo: 'navidrome/navidrome',
    instance_id: 'instance_navidrome__navidrome-55730514ea59d5f1d0b8e3f8745569c29bdbf7b4',
    base_commit: '768160b05e9929bf5d82359b7768e67ffffeb9b6',
    patch: PATCH,
    test_patch: TEST_PATCH,
    problem_statement: '### Title: backups are not supported',
    requirements: '- Allow users to configure backups',
    interface: 'Create a method `Backup(ctx)`',
    repo_language: 'go',
    fail_to_pass: "['TestDB']",
    pass_to_pass: '[]',
    selected_test_files_to_run: "['TestDB', 'TestBackup\\'s \"edge\"']",
    before_repo_set_cmd: 'git reset --hard 768160b\ngit checkout 5573051 -- db/backup_test.go',
    dockerhub_tag: 'navidrome.navidrome-navidrome__navidrome-55730514ea59d5f1d0b8e3f8745569c29bdbf7b4',
    issue_specificity: '["core_feat"]',
    ...overrides,
  };
}

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof UserError, `expected a UserError, got ${e}`);
    return [e.message, ...e.details];
  }
  assert.fail('expected an error');
}

const EVAL_SCRIPT = [
  '#!/bin/bash',
  'set -uxo pipefail',
  'cd /testbed',
  'git checkout ccc shapes_test.go',
  "git apply --verbose --reject - <<'EOF_114329324912'",
  "+ : '>>>>> Start Test Output' (a patch line that only looks like a marker)",
  'EOF_114329324912',
  'make build',
  "echo ': not a marker'",
  ": '>>>>> Start Test Output'",
  'go test -v . -run "^TestColor"',
  'SWEBENCH_TEST_EXIT_CODE=$?',
  ": '>>>>> End Test Output'",
  'git checkout ccc shapes_test.go',
].join('\n');

test("a Multilingual instance keeps the dataset's parser, eval type and the test section of its eval script", () => {
  const chain = loadChain(
    'ml.json',
    JSON.stringify([
      multilingual({ log_parser: 'parse_log_gotest', eval_type: 'fail_only', eval_script: EVAL_SCRIPT }),
    ]),
  );
  assert.equal(chain.format, 'swebench');
  const [step] = chain.steps;
  assert.equal(step.logParser, 'gotest');
  assert.equal(step.evalType, 'fail_only');
  assert.equal(step.testCmd, 'go test -v . -run "^TestColor"');
  assert.equal(step.buildCmd, "make build\necho ': not a marker'");
  assert.deepEqual(step.failToPass, ['TestColor/plain']);
  assert.equal(step.version, '3741');
});

test("a dataset's harness alias names the parser it aliases; test_cmds wins over the eval script", () => {
  const chain = loadChain(
    'ml.jsonl',
    JSON.stringify(multilingual({ log_parser: 'parse_log_flask', test_cmds: 'pytest -rA', eval_script: EVAL_SCRIPT })),
  );
  assert.equal(chain.steps[0].logParser, 'pytest');
  assert.equal(chain.steps[0].testCmd, 'pytest -rA');
  assert.equal(chain.steps[0].buildCmd, undefined);
});

test('an unknown log_parser, a bad eval_type and an eval script without markers are errors at their JSON path', () => {
  const lines = [
    JSON.stringify(multilingual({ log_parser: 'parse_log_nosuch' })),
    JSON.stringify(multilingual({ instance_id: 'gin-gonic__gin-2', eval_script: 'go test ./...' })),
  ].join('\n');
  const p = problems(() => loadChain('ml.jsonl', lines, { instanceIds: ['gin-gonic__gin-3741', 'gin-gonic__gin-2'] }));
  assert.match(p[0], /ml\.jsonl has instances ChainLens cannot grade/);
  assert.match(p[1], /^ml\.jsonl:1: \$\.log_parser: unknown log parser 'parse_log_nosuch' \(expected .*gotest/);
  assert.match(p[2], /^ml\.jsonl:2: \$\.eval_script: no test command between/);
  const bad = problems(() => loadChain('ml.json', JSON.stringify([multilingual({ eval_type: 'pass_only' })])));
  assert.match(bad[1], /^ml\.json: \$\[0\]\.eval_type: /);
});

test('a SWE-bench Pro instance: Python-literal test lists, its problem template, its image and selected tests', () => {
  const chain = loadChain('pro.jsonl', JSON.stringify(pro()));
  assert.equal(chain.format, 'swebench-pro');
  assert.equal(
    chain.dockerImage,
    'jefzda/sweap-images:navidrome.navidrome-navidrome__navidrome-55730514ea59d5f1d0b8e3f8745569c29bdbf7b4',
  );
  const [step] = chain.steps;
  assert.deepEqual(step.failToPass, ['TestDB']);
  assert.deepEqual(step.passToPass, []);
  assert.deepEqual(step.testFiles, ['TestDB', 'TestBackup\'s "edge"']);
  assert.equal(
    step.problemStatement,
    '### Title: backups are not supported\n\nRequirements:\n- Allow users to configure backups\n\nNew interfaces introduced:\nCreate a method `Backup(ctx)`',
  );
  // Pro's per-instance parser is not in the dataset: the harness parser for the language stands in.
  assert.equal(step.logParser, 'gotest');
  assert.equal(step.testCmd, null);
});

test('Pro test lists may be JSON strings or upper-case columns; a log_parser field overrides the language default', () => {
  const { fail_to_pass: _f, pass_to_pass: _p, ...rest } = pro();
  const chain = loadChain(
    'pro.json',
    JSON.stringify([{ ...rest, FAIL_TO_PASS: '["TestDB"]', PASS_TO_PASS: ['TestX'], log_parser: 'parse_log_jest' }]),
  );
  assert.deepEqual(chain.steps[0].failToPass, ['TestDB']);
  assert.deepEqual(chain.steps[0].passToPass, ['TestX']);
  assert.equal(chain.steps[0].logParser, 'jest');
});

test('a malformed Pro instance is reported by file, line and JSON path, and nothing is loaded', () => {
  const lines = [
    JSON.stringify(pro()),
    JSON.stringify(pro({ instance_id: 'x2', fail_to_pass: "['TestDB'", base_commit: 'not-a-hash' })),
  ].join('\n');
  const p = problems(() => loadChain('pro.jsonl', lines));
  assert.match(p[0], /pro\.jsonl has invalid SWE-bench Pro instances/);
  assert.ok(
    p.some((l) => /^pro\.jsonl:2: \$\.base_commit: expected a commit hash/.test(l)),
    p.join('\n'),
  );
  assert.ok(
    p.some((l) => /^pro\.jsonl:2: \$\.fail_to_pass: expected an array of test ids/.test(l)),
    p.join('\n'),
  );
});
