import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseBash } from '../../../src/core/trajectories/interpret/bashCommand';
import { RepoPaths } from '../../../src/core/trajectories/interpret/repoPaths';
import { parseSedInPlace } from '../../../src/core/trajectories/interpret/sedScript';
import { analyseSweAgentAction } from '../../../src/core/trajectories/interpret/sweAgentCommand';
import { detectTrajectoryFormat } from '../../../src/core/trajectories';
import { read, samples } from './fixtures';

const paths = new RepoPaths('/testbed');
const ok = (output: string) => ({ output, exitCode: 0, truncated: false });

test('shell commands get the kind a reader expects, with the reason', () => {
  const cases: [string, string, RegExp][] = [
    ['python -m pytest tests/test_fields.py -q', 'test', /python -m pytest/],
    ['cd /testbed && pytest -x tests', 'test', /pytest/],
    ['./tests/runtests.py queries', 'test', /runtests/],
    ['python reproduce.py', 'run', /runs `python reproduce.py`/],
    ['grep -rn "def mean" src', 'search', /grep/],
    ['find . -name "*.py" | head', 'search', /find/],
    ["sed -i 's/a/b/' src/x.py && python src/x.py", 'edit', /sed -i/],
    ["cat <<'EOF' > new.py\nprint(1)\nEOF", 'create', /writes new.py/],
    ['git checkout -- src/x.py', 'edit', /git checkout/],
    ['git diff', 'view', /git diff/],
    ['echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached', 'submit', /submit marker/],
    ['pip install -e .', 'run', /installs packages/],
    ['', 'other', /empty command/],
  ];
  for (const [command, kind, reason] of cases) {
    const e = analyseBash(command, null, { paths, cwd: '/testbed' });
    assert.equal(e.kind, kind, command);
    assert.match(e.reason, reason, command);
  }
});

test('files and line ranges come from the command and, when it owns the output, from what it printed', () => {
  const numbered = analyseBash(
    "nl -ba src/calc.py | sed -n '10,12p'",
    ok('    10\ta = 1\n    11\tb = 2\n    12\tc = 3\n'),
    { paths, cwd: '/testbed' },
  );
  assert.deepEqual(numbered.touches, [{ path: 'src/calc.py', access: 'view', ranges: [{ start: 10, end: 12 }] }]);
  assert.deepEqual(numbered.ops, [
    { type: 'view', path: 'src/calc.py', startLine: 10, lines: ['a = 1', 'b = 2', 'c = 3'] },
  ]);

  const grep = analyseBash('grep -rn foo /testbed/src', ok('/testbed/src/a.py:3:foo\n/testbed/src/b.py:9:  foo()\n'), {
    paths,
    cwd: '/testbed',
  });
  assert.deepEqual(grep.touches, [
    { path: 'src/a.py', access: 'search', ranges: [{ start: 3, end: 3 }] },
    { path: 'src/b.py', access: 'search', ranges: [{ start: 9, end: 9 }] },
  ]);

  // two commands print: the output cannot be split between them, so nothing is learnt from it
  const two = analyseBash('cat a.py && cat b.py', ok('x\ny\n'), { paths, cwd: '/testbed' });
  assert.deepEqual(two.ops, []);
  assert.deepEqual(
    two.touches.map((t) => t.path),
    ['a.py', 'b.py'],
  );
  // `cd` carries into the next commands of the line
  const cd = analyseBash('cd src && cat calc.py', ok('a = 1\n'), { paths, cwd: '/testbed' });
  assert.deepEqual(cd.touches, [{ path: 'src/calc.py', access: 'view', ranges: [{ start: 1, end: 1 }] }]);
});

test('sed -i scripts: simple substitutions become per-line edits, anything else is refused', () => {
  const sed = parseSedInPlace([
    'sed',
    '-i',
    's/def division(a: float, b: float) -> float/&:/',
    'tests/missing_colon.py',
  ]);
  assert.ok(sed && sed !== 'not-in-place');
  assert.equal(
    sed.substitutions[0].apply('def division(a: float, b: float) -> float'),
    'def division(a: float, b: float) -> float:',
  );
  const ranged = parseSedInPlace(['sed', '-i', '3,5s/\\(foo\\)\\.bar/\\1.baz/g', 'x.py']);
  assert.ok(ranged && ranged !== 'not-in-place');
  assert.deepEqual(ranged.substitutions[0].range, { start: 3, end: 5 });
  assert.equal(ranged.substitutions[0].apply('foo.bar + foo.bar + fooXbar'), 'foo.baz + foo.baz + fooXbar');
  assert.equal(parseSedInPlace(['sed', '-i', '/^import/d', 'x.py']), null);
  assert.equal(parseSedInPlace(['sed', '-n', '1,5p', 'x.py']), 'not-in-place');
});

test('SWE-agent commands: open/goto windows, edit ranges, searches and submit', () => {
  const ctx = { paths: new RepoPaths('/repo'), cwd: '/repo', openFile: 'src/a.py' };
  const window =
    '[File: /repo/src/a.py (50 lines total)]\n(9 more lines above)\n10:x = 1\n11:y = 2\n(39 more lines below)';
  const goto = analyseSweAgentAction('goto 10', undefined, window, ctx);
  assert.equal(goto.kind, 'view');
  assert.deepEqual(goto.touches, [{ path: 'src/a.py', access: 'view', ranges: [{ start: 10, end: 11 }] }]);
  assert.deepEqual(goto.ops, [
    { type: 'view', path: 'src/a.py', startLine: 10, lines: ['x = 1', 'y = 2'], totalLines: 50 },
  ]);

  const search = analyseSweAgentAction(
    'search_file "foo"',
    undefined,
    'Found 2 matches for "foo" in /repo/src/a.py:\nLine 4:foo()\nLine 30:  foo\nEnd of matches',
    ctx,
  );
  assert.deepEqual(search.touches, [
    {
      path: 'src/a.py',
      access: 'search',
      ranges: [
        { start: 4, end: 4 },
        { start: 30, end: 30 },
      ],
    },
  ]);

  const edit = analyseSweAgentAction('edit 3:4\nz = 3\nend_of_edit', undefined, 'File updated.', ctx);
  assert.deepEqual(edit.ops, [{ type: 'replaceLines', path: 'src/a.py', start: 3, end: 4, lines: ['z = 3'] }]);

  const opened = analyseSweAgentAction('open src/b.py', undefined, 'File src/b.py not found', ctx);
  assert.equal(opened.openFile, 'src/a.py');
});

test('format detection from the name and first bytes of each sample', () => {
  const head = (p: string) => read(p).slice(0, 65536);
  assert.deepEqual(pick(detectTrajectoryFormat(samples.sweV0, head(samples.sweV0))), ['swe-agent', 'json', 'v0']);
  assert.deepEqual(pick(detectTrajectoryFormat(samples.sweV1, head(samples.sweV1))), ['swe-agent', 'json', 'v1']);
  assert.deepEqual(pick(detectTrajectoryFormat(samples.miniLegacy, head(samples.miniLegacy))), [
    'mini-swe-agent',
    'json',
    'legacy-list',
  ]);
  assert.deepEqual(pick(detectTrajectoryFormat(samples.miniPreds, head(samples.miniPreds))), [
    'predictions',
    'json',
    'preds-json',
  ]);
  assert.deepEqual(pick(detectTrajectoryFormat(samples.swePreds, head(samples.swePreds))), [
    'predictions',
    'jsonl',
    'preds-jsonl',
  ]);
  assert.deepEqual(pick(detectTrajectoryFormat(samples.ohV0, head(samples.ohV0))), ['openhands', 'jsonl', 'v0-events']);
  assert.deepEqual(pick(detectTrajectoryFormat(samples.ohV1, head(samples.ohV1))), ['openhands', 'jsonl', 'v1-events']);
  assert.equal(detectTrajectoryFormat('notes.txt', 'hello'), null);
  // a 1.1 file names its format even when the name says nothing
  assert.deepEqual(
    pick(
      detectTrajectoryFormat(
        'x.json',
        '{"info": {"mini_version": "2.0.0"}, "messages": [], "trajectory_format": "mini-swe-agent-1.1"}',
      ),
    ),
    ['mini-swe-agent', 'json', '1.1'],
  );
});

function pick(d: ReturnType<typeof detectTrajectoryFormat>): unknown[] {
  return d ? [d.format, d.container, d.version] : [];
}
