// A post-image parsed incrementally finds its definitions by searching only where it differs from
// its pre-image (LazyMirror.startsOf). Random line edits of real sources in every language hold
// that to what a search of a tree parsed from scratch finds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntaxEdits } from '../../../src/core/analysis/edits';
import { profileOf } from '../../../src/core/analysis/languages';
import type { LanguageId } from '../../../src/core/analysis/syntax';
import { applyFilePatchWithEdits } from '../../../src/core/patch/apply';
import { parsePatch } from '../../../src/core/patch/parse';
import { seededRandom as random } from '../../../src/core/study/random';
import type { LazyMirror } from '../../../src/infra/treesitter/mirror';
import { TreeSitterParser } from '../../../src/infra/treesitter/parser';
import { diffOf } from './helpers';

const FIXTURES = join(__dirname, '../../fixtures/analysis/base');

const PYTHON = `"""A module."""
import os


class Store:
    """Keeps items."""

    def __init__(self, items=None):
        self.items = items or []

    @property
    def size(self):
        return len(self.items)

    async def load(self, path):
        with open(path) as f:
            for line in f:
                self.items.append(line)


def helper(x):
    def inner(y):
        return y + 1
    return inner(x)


lambda_value = lambda z: z * 2
`;

// Each source five times over: a tree edited in few places for its size is searched only there
// (a small one is searched whole, which would test nothing here).
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const sources: [LanguageId, string, string][] = (
  [
    ['python', 'm.py', PYTHON],
    // Indices are UTF-16 units and rows end at '\n': characters outside the BMP and CRLF too.
    ['python', 'crlf.py', PYTHON.replace('Keeps items.', 'Keeps items, é 🐍 ü.').replace(/\n/g, '\r\n')],
    ['javascript', 'shapes.js', fixture('shapes.js')],
    ['typescript', 'store.ts', fixture('store.ts')],
    ['go', 'server.go', fixture('server.go')],
    ['java', 'App.java', fixture('App.java')],
    ['rust', 'lib.rs', fixture('lib.rs')],
  ] as [LanguageId, string, string][]
).map(([language, path, text]) => [language, path, `${text}\n`.repeat(5)]);

/**
 * A few line edits: a line removed, copied elsewhere (definitions appear, move or nest), indented
 * or unindented, or a line that opens a definition inserted.
 */
function edited(text: string, next: () => number): string {
  const lines = text.split('\n');
  const pick = () => Math.floor(next() * lines.length);
  const opener = ['def extra(a):', 'class Extra:', 'function extra() {', 'fn extra() {', 'func extra() {', '}', ''];
  for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
    const kind = Math.floor(next() * 4);
    const at = pick();
    if (kind === 0) lines.splice(at, 1);
    else if (kind === 1) lines.splice(pick(), 0, lines[at]);
    else if (kind === 2) lines[at] = next() < 0.5 ? `    ${lines[at]}` : lines[at].replace(/^ {1,4}/, '');
    else lines.splice(at, 0, opener[Math.floor(next() * opener.length)]);
  }
  return lines.join('\n');
}

const parser = new TreeSitterParser();

/**
 * `post` parsed from `pre` (the pre-image searched first, as analysis does) and from scratch: the
 * definitions each finds, whether the base's own answer held, how many spans the incremental
 * search took (undefined: it searched the whole tree), and whether the post-image has errors.
 */
async function bothWays(language: LanguageId, path: string, pre: string, post: string) {
  const types = profileOf(language).definitionTypes;
  const applied = applyFilePatchWithEdits(pre, parsePatch(diffOf(path, pre, post)).files[0]);
  assert.equal(applied.text, post);
  const base = (await parser.parse(language, pre)) as LazyMirror;
  const before = base.startsOf(types);
  const tree = (await parser.parse(language, post, {
    tree: base,
    edits: syntaxEdits(pre, post, applied.edits),
  })) as LazyMirror;
  const fresh = (await parser.parse(language, post)) as LazyMirror;
  try {
    const incremental = tree.startsOf(types);
    return {
      incremental,
      fresh: fresh.startsOf(types),
      baseKept: JSON.stringify(base.startsOf(types)) === JSON.stringify(before),
      edits: applied.edits.length,
      spans: tree.spansSearched,
      hasError: tree.tree.rootNode.hasError,
    };
  } finally {
    for (const t of [tree, fresh, base]) t.delete();
  }
}

test('definitions found where an incremental parse changed equal a search of a fresh parse', async () => {
  let incremental = 0;
  for (const [language, path, pre] of sources) {
    for (let seed = 1; seed <= 120; seed++) {
      const post = edited(pre, random(seed * 7919 + language.length));
      if (post === pre) continue;
      const r = await bothWays(language, path, pre, post);
      assert.deepEqual(r.incremental, r.fresh, `${language}, seed ${seed}:\n${post}`);
      // The base's own answer is kept, not disturbed by the search of the edited tree.
      assert.ok(r.baseKept, `${language}, seed ${seed}: the base's definitions changed`);
      if (r.spans !== undefined) incremental++;
    }
  }
  // Most edits keep the text parseable, so most cases above were searched where they changed.
  assert.ok(incremental > 200, `only ${incremental} of the cases were searched where they changed`);
});

/** Definitions after the case, so that the tree is large enough to be searched only where it changed. */
const withTail = (language: LanguageId, text: string) =>
  text +
  Array.from({ length: 40 }, (_, i) =>
    language === 'python' ? `def tail_${i}(x):\n    return x\n\n\n` : `function tail_${i}(x) {\n  return x;\n}\n`,
  ).join('');

test('a definition that edits elsewhere turn from text into code is found, though no edit touched its lines', async () => {
  // The quotes (or comment marks) around a definition are edited away, two separate edits with
  // a line and the definition's own lines between them: only tree-sitter's changed ranges point there.
  const cases: [LanguageId, string, string, string][] = [
    [
      'python',
      'm.py',
      'def a():\n    pass\n\n\nt = """\n# note\ndef b():\n    pass\n"""\n\n\ndef c():\n    pass\n',
      'def a():\n    pass\n\n\nt = 1\n# note\ndef b():\n    pass\n# end\n\n\ndef c():\n    pass\n',
    ],
    [
      'javascript',
      'm.js',
      'function a() {}\n/*\nconst x = 1;\nfunction b() {\n  return 1;\n}\n*/\nfunction c() {}\n',
      'function a() {}\n// open\nconst x = 1;\nfunction b() {\n  return 1;\n}\n// close\nfunction c() {}\n',
    ],
  ];
  for (const [language, path, before, after] of cases) {
    const { incremental, fresh, edits, spans, hasError } = await bothWays(
      language,
      path,
      withTail(language, before),
      withTail(language, after),
    );
    assert.equal(hasError, false, `${language}: the post-image parses cleanly (the incremental path)`);
    assert.ok(spans !== undefined, `${language}: searched where it changed`);
    assert.equal(edits, 2, `${language}: two edits, the definition's lines between them`);
    assert.ok(fresh!.length > 2, `${language}: b is a definition after the edit`);
    assert.deepEqual(incremental, fresh, language);
  }
});

test('a definition whose own line an edit rewrote, its shape unchanged, is found again', async () => {
  // Same structure before and after, so tree-sitter may report no change there: the edit's own
  // span is searched all the same (the base's definition there cannot be moved through the edit).
  const pre = withTail('python', 'import os\n\n\ndef f(x):\n    return x\n\n\ndef g(x):\n    return x\n');
  const post = withTail('python', 'import os\n\n\ndef f(y):\n    return y\n\n\ndef g(x):\n    return x\n');
  const { incremental, fresh, spans, hasError } = await bothWays('python', 'm.py', pre, post);
  assert.equal(hasError, false, 'the post-image parses cleanly (the incremental path)');
  assert.ok(spans !== undefined, 'searched where it changed');
  assert.deepEqual(incremental, fresh);
});
