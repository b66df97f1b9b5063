import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChain } from '../../../src/core/formats/loadChain';
import { UserError } from '../../../src/core/util/errors';

const FORMATS = join(__dirname, '../../fixtures/formats');
const read = (name: string) => readFileSync(join(FORMATS, name), 'utf8');

function chainSwe(overrides: Record<string, unknown> = {}, fixOverrides: Record<string, unknown>[] = [{}, {}]) {
  return {
    continuous_id: 'demo_chain',
    repo: 'owner/repo',
    base_commit: 'a'.repeat(40),
    docker_image: 'img:1',
    bug_fixes: fixOverrides.map((o, i) => ({
      order: i + 1,
      swebench_instance_id: `owner__repo-${i + 1}`,
      problem_statement: `bug ${i + 1}`,
      patch: 'diff --git a/x b/x\n',
      test_patch: 'diff --git a/t b/t\n',
      FAIL_TO_PASS: ['t.py::test_a'],
      PASS_TO_PASS: '["t.py::test_b", "t.py::test_c[1-2]"]',
      test_cmds: 'pytest -rA t.py',
      ...o,
    })),
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

test('a ChainSWE chain becomes a Chain with steps sorted by order and test lists decoded from strings', () => {
  const raw = chainSwe({}, [{ order: 2 }, { order: 1 }]);
  const chain = loadChain('c.json', JSON.stringify(raw));
  assert.equal(chain.format, 'chainswe');
  assert.equal(chain.id, 'demo_chain');
  assert.deepEqual(
    chain.steps.map((s) => s.order),
    [1, 2],
  );
  assert.deepEqual(chain.steps[0].passToPass, ['t.py::test_b', 't.py::test_c[1-2]']);
  assert.equal(chain.steps[0].testCmd, 'pytest -rA t.py');
  assert.equal(chain.dockerImage, 'img:1');
});

test('a ChainSWE JSONL dataset is picked from by continuous_id; without one the error lists the ids', () => {
  const text =
    [chainSwe({ continuous_id: 'one' }), chainSwe({ continuous_id: 'two' })].map((c) => JSON.stringify(c)).join('\n') +
    '\n';
  assert.equal(loadChain('d.jsonl', text, { chainId: 'two' }).id, 'two');
  const noId = problems(() => loadChain('d.jsonl', text));
  assert.match(noId.join('\n'), /holds 2 chains; choose one/);
  assert.match(noId.join('\n'), /one, two/);
  const unknown = problems(() => loadChain('d.jsonl', text, { chainId: 'three' }));
  assert.match(unknown[0], /no chain with continuous_id 'three'/);
});

test('missing fields and wrong types are reported with file and JSON path, one line each', () => {
  const raw = chainSwe({ repo: 42 }, [{ patch: undefined }, { FAIL_TO_PASS: 'not json' }]);
  const lines = problems(() => loadChain('bad.json', JSON.stringify(raw)));
  assert.ok(lines.includes('bad.json: $.repo: expected string, received number'), lines.join('\n'));
  assert.ok(
    lines.includes('bad.json: $.bug_fixes[0].patch: missing required field (expected string)'),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => l.startsWith('bad.json: $.bug_fixes[1].FAIL_TO_PASS: expected an array of test ids')),
    lines.join('\n'),
  );
});

test('a JSONL problem names the line of the chain', () => {
  const text =
    JSON.stringify(chainSwe({ continuous_id: 'ok' })) +
    '\n' +
    JSON.stringify(chainSwe({ continuous_id: 'bad', base_commit: 'xyz' })) +
    '\n';
  const lines = problems(() => loadChain('d.jsonl', text, { chainId: 'bad' }));
  assert.ok(lines.includes('d.jsonl:2: $.base_commit: expected a commit hash'), lines.join('\n'));
});

test('duplicate order and duplicate instance ids are errors naming both positions', () => {
  const lines = problems(() =>
    loadChain(
      'c.json',
      JSON.stringify(chainSwe({}, [{ order: 1 }, { order: 1, swebench_instance_id: 'owner__repo-1' }])),
    ),
  );
  assert.ok(
    lines.some((l) => l === 'c.json: $.bug_fixes[1].order: duplicate order 1 (also $.bug_fixes[0])'),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => /\$\.bug_fixes\[1\]\.swebench_instance_id: duplicate 'owner__repo-1'/.test(l)),
    lines.join('\n'),
  );
});

test('malformed JSON reports file, line and column; malformed JSONL the line', () => {
  const json = problems(() => loadChain('c.json', '{\n  "continuous_id": "x",\n  "repo": \n}'));
  assert.match(json.join('\n'), /c\.json: line 4, column 1/);
  const jsonl = problems(() => loadChain('c.jsonl', JSON.stringify(chainSwe()) + '\n{"continuous_id": \n'));
  assert.match(jsonl.join('\n'), /c\.jsonl:2: /);
});

test('the real SWE-bench pydicom instance is a chain of one step with its image name', () => {
  const chain = loadChain('pydicom.json', read('swebench_instance__pydicom__pydicom-1458.json'));
  assert.equal(chain.format, 'swebench');
  assert.equal(chain.steps.length, 1);
  assert.equal(chain.baseCommit, '8da0b9b215ebfad5756051c891def88e426787e7');
  assert.equal(chain.dockerImage, 'swebench/sweb.eval.x86_64.pydicom_1776_pydicom-1458:latest');
  assert.ok(chain.steps[0].failToPass.length > 0);
  assert.match(chain.steps[0].goldPatch, /numpy_handler\.py/);
});

test('several SWE-bench instances of one repository are assembled by created_at, or in the order given', () => {
  const text = read('swebench_lite_5_instances.json');
  const byDate = loadChain('lite.json', text, {
    instanceIds: undefined === undefined ? ['django__django-16255', 'django__django-15781'] : [],
  });
  assert.deepEqual(
    byDate.steps.map((s) => s.instanceId),
    ['django__django-16255', 'django__django-15781'],
  );
  assert.equal(byDate.repo, 'django/django');
  // JSONL of the two django instances, no order given: created_at decides (15781 is from 2022-06, 16255 from 2022-11).
  const all = JSON.parse(text) as { repo: string }[];
  const jsonl = all
    .filter((i) => i.repo === 'django/django')
    .reverse()
    .map((i) => JSON.stringify(i))
    .join('\n');
  const chain = loadChain('django.jsonl', jsonl);
  assert.deepEqual(
    chain.steps.map((s) => [s.order, s.instanceId]),
    [
      [1, 'django__django-15781'],
      [2, 'django__django-16255'],
    ],
  );
});

test('instances of several repositories are not one chain: every instance is named', () => {
  const lines = problems(() => loadChain('lite.json', read('swebench_lite_5_instances.json')));
  assert.match(lines[0], /span 4/);
  assert.ok(
    lines.some((l) => /lite\.json: \$\[1\]\.repo: sympy\/sympy \(sympy__sympy-13031\)/.test(l)),
    lines.join('\n'),
  );
});

test('an unknown instance id is an error listing what is there', () => {
  const lines = problems(() =>
    loadChain('lite.json', read('swebench_lite_5_instances.json'), { instanceIds: ['django__django-1'] }),
  );
  assert.match(lines[0], /no instance 'django__django-1'/);
});

test('a file that is neither format says what was expected', () => {
  const lines = problems(() => loadChain('x.json', '{"hello": 1}'));
  assert.match(lines.join('\n'), /expected an object with 'bug_fixes' \(ChainSWE\) or 'instance_id' \(SWE-bench\)/);
});
