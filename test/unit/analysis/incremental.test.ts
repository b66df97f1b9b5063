// Post-images are parsed as edits of their pre-image (tree-sitter incremental parsing). These
// tests hold that to "the same as a parse from scratch".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFilePatchWithEdits } from '../../../src/core/patch/apply';
import { parsePatch } from '../../../src/core/patch/parse';
import { syntaxEdits } from '../../../src/core/analysis/edits';
import type { SyntaxNodeLike, SyntaxEdit } from '../../../src/core/analysis/syntax';
import { TreeSitterParser } from '../../../src/infra/treesitter/parser';
import { diffOf, symbols } from './helpers';

function module(n: number, edit: (i: number) => string = () => ''): string {
  let text = 'import os\n\n\n';
  for (let i = 0; i < n; i++)
    text += `def f${i}(x):\n    total = x${edit(i)}\n    for k in range(${i}):\n        total += k\n    return total\n\n\n`;
  return text;
}

/** Every node: type, field, span and positions, in document order. */
function dump(node: SyntaxNodeLike, field: string | null = null, out: string[] = []): string[] {
  out.push(
    `${field ?? ''}:${node.type}@${node.startIndex}-${node.endIndex} ${node.startPosition.row}.${node.startPosition.column}-${node.endPosition.row}.${node.endPosition.column}`,
  );
  for (let i = 0; i < node.childCount; i++) dump(node.child(i)!, node.fieldNameForChild(i), out);
  return out;
}

function editsOf(path: string, pre: string, post: string): SyntaxEdit[] {
  const file = parsePatch(diffOf(path, pre, post)).files[0];
  const applied = applyFilePatchWithEdits(pre, file);
  assert.equal(applied.text, post);
  return syntaxEdits(pre, post, applied.edits);
}

test('applyFilePatchWithEdits reports each run of removed/added lines where it landed', () => {
  const pre = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n';
  const post = 'a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n';
  const file = parsePatch(diffOf('x.txt', pre, post)).files[0];
  const { text, edits } = applyFilePatchWithEdits(pre, file);
  assert.equal(text, post);
  assert.deepEqual(edits, [
    { oldStart: 1, oldCount: 1, newStart: 1, newCount: 1 },
    { oldStart: 13, oldCount: 0, newStart: 13, newCount: 1 },
  ]);
});

test('syntaxEdits, applied one after the other, turn the pre-image into the post-image', () => {
  const cases: [string, string][] = [
    [module(6), module(6, (i) => (i % 2 ? ' + 1' : ''))],
    ['a\r\nb\r\nc\r\n', 'a\r\nbé\r\nc\r\nd'],
    ['x = 1\ny = 2', 'x = 1\ny = 3'],
    ['keep\nlast\n', 'keep\n'],
  ];
  for (const [pre, post] of cases) {
    let text = pre;
    for (const e of editsOf('x.py', pre, post)) {
      const point = (s: string, i: number) => ({
        row: s.slice(0, i).split('\n').length - 1,
        column: i - (s.lastIndexOf('\n', i - 1) + 1),
      });
      assert.deepEqual(e.startPosition, point(text, e.startIndex));
      assert.deepEqual(e.oldEndPosition, point(text, e.oldEndIndex));
      text = text.slice(0, e.startIndex) + post.slice(e.startIndex, e.newEndIndex) + text.slice(e.oldEndIndex);
      assert.deepEqual(e.newEndPosition, point(text, e.newEndIndex));
    }
    assert.equal(text, post);
  }
});

test('an incrementally parsed post-image has exactly the tree of a parse from scratch', async () => {
  const parser = new TreeSitterParser();
  const pre = module(12);
  const posts = [
    module(12, (i) => (i % 3 === 0 ? ' or 0' : '')),
    module(12, (i) => (i === 5 ? '\n    if x is None:\n        raise ValueError(x)' : '')),
    module(9),
    // A syntax error: error recovery differs by where parsing starts, so this is parsed afresh.
    module(12, (i) => (i === 4 ? ' +' : '')),
  ];
  const base = (await parser.parse('python', pre))!;
  // Copied whole, so that unchanged subtrees of the post-images are copies of these.
  base.readSubtree?.(base.rootNode);
  for (const post of posts) {
    for (const whole of [false, true]) {
      const incremental = (await parser.parse('python', post, { tree: base, edits: editsOf('m.py', pre, post) }))!;
      if (whole) incremental.readSubtree?.(incremental.rootNode);
      const fresh = (await parser.parse('python', post))!;
      assert.deepEqual(dump(incremental.rootNode), dump(fresh.rootNode));
      incremental.delete();
      fresh.delete();
    }
  }
  base.delete();
});

test('a base tree freed is only a lost hint: the post-image parses from scratch', async () => {
  const parser = new TreeSitterParser();
  const pre = module(4);
  const post = module(4, (i) => (i === 1 ? ' * 2' : ''));
  const edits = editsOf('m.py', pre, post);
  const freed = (await parser.parse('python', pre))!;
  freed.delete();
  const kept = (await parser.parse('python', pre))!;
  for (let i = 0; i < 10; i++) (await parser.parse('python', module(i)))!.delete();
  const fresh = dump((await parser.parse('python', post))!.rootNode);
  assert.deepEqual(dump((await parser.parse('python', post, { tree: freed, edits }))!.rootNode), fresh);
  assert.deepEqual(dump((await parser.parse('python', post, { tree: kept, edits }))!.rootNode), fresh);
});

test('SymbolIndex.open with a base outline gives the same symbols and details', async () => {
  const pre = module(8);
  const post = module(8, (i) => (i === 3 ? '\n    if x is None:\n        return None' : i === 6 ? ' or 0' : ''));
  const base = (await symbols.open('m.py', pre))!;
  const incremental = (await symbols.open('m.py', post, { outline: base, edits: editsOf('m.py', pre, post) }))!;
  const fresh = (await symbols.open('m.py', post))!;
  assert.deepEqual(incremental.symbols, fresh.symbols);
  for (const s of fresh.symbols) assert.deepEqual(incremental.detail(s.qualifiedName), fresh.detail(s.qualifiedName));
  assert.equal(incremental.symbolAt(26)?.qualifiedName, 'f3');
  for (const o of [base, incremental, fresh]) o.dispose();
});
