import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconstructWorkspace } from '../../../src/core/trajectories';
import { diffFile } from '../../../src/core/trajectories/workspace/filePatch';
import { FileModel, baseFromText } from '../../../src/core/trajectories/workspace/fileModel';
import { only, parse, samples } from './fixtures';

const NUMPY_HANDLER = 'pydicom/pixel_data_handlers/numpy_handler.py';

test('an edit in a file seen only around it lands on the right lines; unseen lines stay unknown', () => {
  const m = new FileModel('a.py');
  m.observe(10, ['ten', 'eleven', 'twelve', 'thirteen'], { totalLines: 20 });
  assert.equal(m.replaceLines(11, 12, ['ELEVEN', 'TWELVE', 'TWELVE-B']), null);
  assert.equal(m.totalLines, 21);
  assert.deepEqual(m.knownRuns(), [{ startLine: 10, lines: ['ten', 'ELEVEN', 'TWELVE', 'TWELVE-B', 'thirteen'] }]);
  assert.equal(m.fullText(), null);
  const d = diffFile(m);
  assert.equal(d.gap, null);
  assert.equal(
    d.text,
    'diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -10,4 +10,5 @@\n ten\n-eleven\n-twelve\n+ELEVEN\n+TWELVE\n+TWELVE-B\n thirteen\n',
  );
});

test('replacing lines never seen is a gap in the patch, not a guess', () => {
  const m = new FileModel('a.py');
  m.observe(1, ['one', 'two'], { totalLines: 5 });
  m.replaceLines(4, 4, ['FOUR']);
  const d = diffFile(m);
  assert.equal(d.text, '');
  assert.equal(d.gap, 'a.py: lines 4-4 were replaced without being seen');
});

test('a view that contradicts the model detaches the file with the reason', () => {
  const m = new FileModel('a.py');
  m.observe(1, ['one', 'two', 'three']);
  const conflict = m.observe(2, ['TWO']);
  assert.equal(conflict, 'line 2 shows text that differs from what the trajectory implies');
  assert.match(diffFile(m).gap ?? '', /changed in a way that cannot be followed/);
  assert.deepEqual(m.knownRuns(), [{ startLine: 2, lines: ['TWO'] }]);
});

test('str_replace of text never seen is placed through the post-edit snippet', () => {
  const fresh = new FileModel('b.py');
  const snippet = { startLine: 40, lines: ['def f(x):', '    return x + 1', '', 'def g():'] };
  assert.equal(fresh.strReplace('    return x\n', '    return x + 1\n', snippet), null);
  // the old text sat where the new text shows in the snippet
  assert.deepEqual(fresh.knownRuns(), [{ startLine: 41, lines: ['    return x + 1', ''] }]);
  assert.equal(fresh.observe(snippet.startLine, snippet.lines), null);
  assert.deepEqual(fresh.knownRuns(), [{ startLine: 40, lines: snippet.lines }]);
  assert.match(
    diffFile(fresh).text,
    /@@ -40,4 \+40,4 @@\n def f\(x\):\n-    return x\n\+    return x \+ 1\n \n def g\(\):\n/,
  );
});

test('sed substitutions apply line by line where every line is known, else the file is untracked', () => {
  const m = new FileModel('a.py', baseFromText('a = 1\nb = 1\nc = 1\n'));
  assert.equal(
    m.substitute({ start: 2, end: 3 }, (l) => l.replace(/1/g, '2')),
    null,
  );
  assert.equal(m.fullText(), 'a = 1\nb = 2\nc = 2\n');
  const partial = new FileModel('b.py');
  partial.observe(1, ['x = 1'], { totalLines: 3 });
  assert.equal(
    partial.substitute(null, (l) => l),
    'sed ran over line 2, which was never seen',
  );
});

test('pydicom: a view after the edit reveals base lines 237-286 for earlier steps too', () => {
  const t = only(parse(samples.sweV0));
  const ws = reconstructWorkspace(t);
  const atOpen = ws.fileAt(NUMPY_HANDLER, 4);
  assert.equal(atOpen.totalLines, 372);
  assert.deepEqual(
    atOpen.runs.map((r) => [r.startLine, r.lines.length]),
    [[237, 136]],
  );
  assert.equal(atOpen.runs[0].lines[287 - 237], '    required_elements = [');
  const afterEdit = ws.fileAt(NUMPY_HANDLER, 8);
  assert.equal(afterEdit.totalLines, 373);
  assert.equal(afterEdit.runs[0].lines[290 - 237], "    if 'PixelData' in ds:");
  assert.equal(afterEdit.text, null);
  assert.equal(afterEdit.unknownBecause, 'parts of the file were never shown in the trajectory');
  assert.deepEqual(ws.fileAt('reproduce_bug.py', 10).exists, false);
  assert.equal(ws.fileAt('reproduce_bug.py', 1).text?.split('\n').length, 19);
});

test('with the base files supplied, the whole file is known at every step', () => {
  const t = only(parse(samples.sweV0));
  const seen = reconstructWorkspace(t).fileAt(NUMPY_HANDLER, 4).runs[0];
  // a base consistent with everything the run showed: the real lines 237-372, filler above
  const base = [...Array.from({ length: 236 }, (_, k) => `# line ${k + 1}`), ...seen.lines].join('\n') + '\n';
  const ws = reconstructWorkspace(t, {
    readBaseFile: (p) => (p === NUMPY_HANDLER ? base : p === 'reproduce_bug.py' ? null : undefined),
  });
  const after = ws.fileAt(NUMPY_HANDLER, 8);
  assert.equal(after.totalLines, 373);
  assert.ok(after.text?.startsWith('# line 1\n# line 2\n'));
  assert.equal(after.unknownBecause, null);
  assert.equal(ws.patchAt(10).text, t.steps[10].patchSoFar?.text);
});

test('a supplied base that contradicts what the run showed is flagged, not trusted silently', () => {
  const t = only(parse(samples.sweV0));
  const wrong = Array.from({ length: 372 }, (_, k) => `line ${k + 1}`).join('\n') + '\n';
  const ws = reconstructWorkspace(t, { readBaseFile: (p) => (p === NUMPY_HANDLER ? wrong : undefined) });
  assert.match(ws.fileAt(NUMPY_HANDLER, 4).unknownBecause ?? '', /step 4: line \d+ shows text that differs/);
  assert.equal(ws.patchAt(10).complete, false);
});
