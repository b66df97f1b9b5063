import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadTrajectoryFile } from '../../../../src/infra/trajectories';
import type { FileSnapshot, TrajectoryStep } from '../../../../src/protocol/trajectory';
import { snapshotText } from '../../../../src/vscode/trajectories/snapshotText';
import { problemText } from '../../../../src/core/trajectories/present/problemText';
import { searchSteps, stepRows } from '../../../../src/core/trajectories/present/stepRows';
import { stepSummary } from '../../../../src/core/trajectories/present/stepText';
import { highlight } from '../../../../webview-ui/src/trajectory/highlight';

import { FORMATS as formats } from '../../../helpers/formats';

describe('trajectory viewer rows on the real pydicom SWE-agent v0 run', () => {
  it('summarises each step by what it did to which file, with lines', async () => {
    const file = await loadTrajectoryFile(`${formats}/sweagent_v0_gpt4__pydicom__pydicom-1458.traj`, {
      thread: 'current',
    });
    const rows = stepRows(file.trajectories[0]);
    assert.equal(rows.length, 12);
    assert.deepEqual(
      rows.map((r) => `${r.index} ${r.kind} ${r.summary}`),
      [
        '0 create create reproduce_bug.py',
        '1 edit edit reproduce_bug.py 1',
        '2 run python reproduce_bug.py',
        '3 search find_file "numpy_handler.py"',
        '4 view view numpy_handler.py 273-372',
        '5 edit edit numpy_handler.py 287-295',
        '6 edit edit numpy_handler.py 287-295',
        '7 edit edit numpy_handler.py 287-295',
        '8 edit edit numpy_handler.py 287-296',
        '9 run python reproduce_bug.py',
        '10 run rm reproduce_bug.py',
        '11 submit submit',
      ],
    );
    assert.deepEqual(rows[8].files, ['pydicom/pixel_data_handlers/numpy_handler.py']);
  });

  it('search finds steps by thought, action or observation, case-insensitively', async () => {
    const t = (
      await loadTrajectoryFile(`${formats}/sweagent_v0_gpt4__pydicom__pydicom-1458.traj`, { thread: 'current' })
    ).trajectories[0];
    assert.deepEqual(
      searchSteps(t, 'FIND_FILE'),
      t.steps.filter((s) => /find_file/i.test(s.action + s.thought + s.observation)).map((s) => s.index),
    );
    assert.ok(searchSteps(t, 'find_file').includes(3));
    assert.deepEqual(searchSteps(t, '   '), []);
  });

  it('a command step without files shows its first non-empty line, clipped', () => {
    const step = {
      actionKind: 'run',
      action: '\n\n  pytest   -x tests/' + 'a'.repeat(200) + '\nsecond line',
      thought: 'why',
      filesTouched: [],
    } as unknown as TrajectoryStep;
    const s = stepSummary(step);
    assert.ok(s.startsWith('pytest -x tests/'));
    assert.equal(s.length, 120);
    assert.ok(s.endsWith('…'));
    assert.equal(
      stepSummary({
        actionKind: 'think',
        action: '',
        thought: 'Let me think.\nmore',
        filesTouched: [],
      } as unknown as TrajectoryStep),
      'Let me think.',
    );
  });
});

describe('trajectory problems and snapshots', () => {
  it('names file and position of a problem', () => {
    assert.equal(
      problemText({
        severity: 'error',
        file: 'a.traj',
        message: 'unexpected end',
        line: 12,
        column: 5,
        jsonPath: '$.trajectory[3]',
      }),
      'a.traj:12:5 ($.trajectory[3]): unexpected end',
    );
    assert.equal(
      problemText({ severity: 'error', file: 'out.jsonl', message: 'cut off', byteOffset: 4096 }),
      'out.jsonl byte 4096: cut off',
    );
  });

  it('keeps known lines at their line numbers and lists unknown stretches', () => {
    const snap: FileSnapshot = {
      path: 'x.py',
      stepIndex: 3,
      exists: true,
      totalLines: 6,
      runs: [
        { startLine: 2, lines: ['b', 'c'] },
        { startLine: 5, lines: ['e'] },
      ],
      text: null,
      unknownBecause: 'never shown',
    };
    assert.deepEqual(snapshotText(snap), {
      text: '\nb\nc\n\ne\n\n',
      unknown: [
        { start: 1, end: 1 },
        { start: 4, end: 4 },
        { start: 6, end: 6 },
      ],
    });
    assert.deepEqual(snapshotText({ ...snap, text: 'whole\n' }), { text: 'whole\n', unknown: [] });
  });
});

describe('webview highlighter', () => {
  it('classes keywords, strings, comments and numbers, and keeps the text intact', () => {
    const src = "def f(x):  # note\n    return 'a' + 42\n";
    const tokens = highlight(src);
    assert.equal(tokens.map((t) => t.text).join(''), src);
    assert.deepEqual(
      tokens.filter((t) => t.cls !== 'plain').map((t) => `${t.cls}:${t.text}`),
      ['keyword:def', 'comment:# note', 'keyword:return', "string:'a'", 'number:42'],
    );
  });

  it('shows diffs by line, and huge outputs plain', () => {
    const diff = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n';
    assert.deepEqual(
      highlight(diff).map((t) => t.cls),
      ['plain', 'plain', 'plain', 'hunk', 'removed', 'added'],
    );
    assert.deepEqual(
      highlight('x '.repeat(30_000)).map((t) => t.cls),
      ['plain'],
    );
  });
});
