// Trees are copied out of wasm lazily: a level when a node's children are first read, a whole
// subtree when a symbol's details are about to be read. Whatever the order, the copy must be
// exactly tree-sitter's own tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileOf } from '../../../src/core/analysis/languages';
import { discoverSymbols } from '../../../src/core/analysis/outline';
import type { LanguageId, SyntaxNodeLike } from '../../../src/core/analysis/syntax';
import { LazyMirror } from '../../../src/infra/treesitter/mirror';
import { TreeSitterParser } from '../../../src/infra/treesitter/parser';
import { symbols } from './helpers';

const FIXTURES = join(__dirname, '../../fixtures/analysis/base');

/** Every node: type, named, field, span and positions, in document order. */
function dump(node: SyntaxNodeLike, field: string | null = null, out: string[] = []): string[] {
  out.push(
    `${field ?? ''}:${node.type}${node.isNamed ? '' : '!'}@${node.startIndex}-${node.endIndex} ${node.startPosition.row}.${node.startPosition.column}-${node.endPosition.row}.${node.endPosition.column} ${node.childForFieldName('name')?.text ?? ''}`,
  );
  for (let i = 0; i < node.childCount; i++) dump(node.child(i)!, node.fieldNameForChild(i), out);
  return out;
}

/** Named nodes down to `depth`, in document order (reads those levels only). */
function namedNodes(node: SyntaxNodeLike, depth: number, out: SyntaxNodeLike[] = []): SyntaxNodeLike[] {
  out.push(node);
  if (depth > 0)
    for (let i = 0; i < node.childCount; i++) if (node.child(i)!.isNamed) namedNodes(node.child(i)!, depth - 1, out);
  return out;
}

const sources: [LanguageId, string][] = [
  ['javascript', readFileSync(join(FIXTURES, 'shapes.js'), 'utf8')],
  ['typescript', readFileSync(join(FIXTURES, 'store.ts'), 'utf8')],
  ['go', readFileSync(join(FIXTURES, 'server.go'), 'utf8')],
  ['java', readFileSync(join(FIXTURES, 'App.java'), 'utf8')],
  ['rust', readFileSync(join(FIXTURES, 'lib.rs'), 'utf8')],
  [
    'python',
    'class A:\n    @property\n    def f(self, x=[1, 2]):\n        """Doc."""\n        return {"a": x or 0}\n\n\ndef g(:\n    pass\n',
  ],
];

test('a lazily copied tree equals the wasm tree, read level by level or by whole subtrees', async () => {
  const parser = new TreeSitterParser();
  for (const [language, text] of sources) {
    const lazy = (await parser.parse(language, text)) as LazyMirror;
    const expected = dump(lazy.tree.rootNode as unknown as SyntaxNodeLike);
    assert.deepEqual(dump(lazy.rootNode), expected, `${language}: level by level`);
    lazy.delete();

    // Subtrees read in one pass, after some of their nodes were read level by level.
    const mixed = (await parser.parse(language, text)) as LazyMirror;
    const nodes = namedNodes(mixed.rootNode, 3);
    for (let i = nodes.length - 1; i > 0; i -= 3) mixed.readSubtree(nodes[i]);
    assert.deepEqual(dump(mixed.rootNode), expected, `${language}: mixed`);
    mixed.delete();

    const whole = (await parser.parse(language, text)) as LazyMirror;
    whole.readSubtree(whole.rootNode);
    assert.deepEqual(dump(whole.rootNode), expected, `${language}: whole tree at once`);
    whole.delete();
  }
});

test('a deleted tree refuses to copy more nodes instead of reading freed memory', async () => {
  const tree = (await new TreeSitterParser().parse('python', 'def f():\n    return 1\n'))!;
  tree.delete();
  assert.throws(() => tree.rootNode.child(0), /after delete/);
  tree.delete();
});

test('symbol discovery that skips subtrees without definition nodes finds exactly what a full walk finds', async () => {
  const parser = new TreeSitterParser();
  for (const [language, text] of sources) {
    const profile = profileOf(language);
    // Cut in half too: error recovery puts definitions in odd places.
    for (const source of [text, text.slice(0, text.length >> 1)]) {
      const tree = (await parser.parse(language, source)) as LazyMirror;
      const starts = tree.startsOf(profile.definitionTypes);
      assert.ok(starts && starts.length > 0, `${language}: definitions found inside wasm`);
      const pruned = discoverSymbols(profile, tree.rootNode, starts).map((f) => f.symbol);
      const full = discoverSymbols(profile, tree.rootNode).map((f) => f.symbol);
      assert.deepEqual(pruned, full, language);
      tree.delete();
    }
  }
});

test('metrics alone are the cyclomatic complexity and logical lines of the full details', async () => {
  for (const [language, text] of sources) {
    const path = {
      python: 'm.py',
      javascript: 'm.js',
      typescript: 'm.ts',
      tsx: 'm.tsx',
      go: 'm.go',
      java: 'M.java',
      rust: 'm.rs',
    }[language];
    const light = (await symbols.open(path, text))!;
    const full = (await symbols.open(path, text))!;
    assert.ok(light.symbols.length > 2, language);
    // Inner symbols first in one, outer first in the other: copies read lazily either way.
    for (const s of [...light.symbols].reverse()) {
      const d = full.detail(s.qualifiedName)!;
      assert.deepEqual(
        light.metrics(s.qualifiedName),
        { cyclomatic: d.cyclomatic, lloc: d.lloc },
        `${language} ${s.qualifiedName}`,
      );
    }
    assert.equal(light.metrics('no.such.symbol'), undefined);
    light.dispose();
    full.dispose();
  }
});
