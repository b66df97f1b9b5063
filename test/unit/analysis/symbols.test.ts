import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symbols } from './helpers';

async function outline(path: string, text: string) {
  const o = await symbols.open(path, text);
  assert.ok(o, `a grammar for ${path}`);
  return o;
}

const PY = `import os


class Reader:
    """Reads."""

    @property
    def size(self):
        return 1

    @size.setter
    def size(self, v):
        self._v = v

    def read(self, path):
        def helper(p):
            return p
        return helper(path)


def top(x):
    if x and x > 1:
        for i in range(x):
            if i % 2:
                x += 1
    elif x is None:
        x = 0
    return [y for y in range(x) if y]
`;

test('Python: qualified names for methods, nested functions and repeated names; decorators in range', async () => {
  const o = await outline('r.py', PY);
  assert.deepEqual(
    o.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine]),
    [
      ['Reader', 'class', 4, 18],
      ['Reader.size', 'method', 7, 9],
      ['Reader.size#2', 'method', 11, 13],
      ['Reader.read', 'method', 15, 18],
      ['Reader.read.helper', 'function', 16, 17],
      ['top', 'function', 21, 28],
    ],
  );
  assert.equal(o.symbolAt(17)?.qualifiedName, 'Reader.read.helper');
  assert.equal(o.symbolAt(18)?.qualifiedName, 'Reader.read');
  assert.equal(o.symbolAt(5)?.qualifiedName, 'Reader');
  assert.equal(o.symbolAt(1), undefined);
  o.dispose();
});

test('Python metrics: radon-style cyclomatic complexity and logical lines', async () => {
  const o = await outline('r.py', PY);
  const d = o.detail('top')!;
  // 1 + if + and + for + if + elif + comprehension for + comprehension if = 8
  assert.equal(d.cyclomatic, 8);
  // if, for, if, augmented assignment, elif, assignment, return
  assert.equal(d.lloc, 7);
  o.dispose();
});

test('JavaScript and TypeScript: classes, methods, functions and arrow functions', async () => {
  const js = `class Cart {\n  add(item) {\n    this.items.push(item);\n  }\n}\nfunction total(c) { return 0; }\nconst fmt = (n) => n.toFixed(2);\n`;
  const o = await outline('cart.js', js);
  assert.deepEqual(
    o.symbols.map((s) => s.qualifiedName),
    ['Cart', 'Cart.add', 'total', 'fmt'],
  );
  o.dispose();
  const ts = `export interface Shape { area(): number }\nexport class Sq implements Shape {\n  constructor(private s: number) {}\n  area(): number { return this.s ** 2; }\n}\n`;
  const t = await outline('sq.ts', ts);
  assert.deepEqual(
    t.symbols.map((s) => s.qualifiedName),
    ['Shape', 'Shape.area', 'Sq', 'Sq.constructor', 'Sq.area'],
  );
  t.dispose();
});

test('Go: methods qualified by their receiver type', async () => {
  const o = await outline(
    'srv.go',
    `package p\n\ntype Server struct{}\n\nfunc (s *Server) Run(x int) error {\n\treturn nil\n}\n\nfunc New() *Server { return &Server{} }\n`,
  );
  assert.deepEqual(
    o.symbols.map((s) => [s.qualifiedName, s.kind]),
    [
      ['Server', 'type'],
      ['Server.Run', 'method'],
      ['New', 'function'],
    ],
  );
  o.dispose();
});

test('Java and Rust: methods inside classes and impl blocks', async () => {
  const j = await outline('A.java', `class A {\n  A() {}\n  int m(int x) { return x; }\n}\n`);
  assert.deepEqual(
    j.symbols.map((s) => s.qualifiedName),
    ['A', 'A.A', 'A.m'],
  );
  j.dispose();
  const r = await outline('lib.rs', `struct S;\nimpl S {\n    fn new() -> S { S }\n}\nfn free() {}\n`);
  assert.deepEqual(
    r.symbols.map((s) => s.qualifiedName),
    ['S', 'S#2', 'S#2.new', 'free'],
  );
  r.dispose();
});

test('no grammar for a file type: no outline (callers fall back to file level)', async () => {
  assert.equal(await symbols.open('notes.txt', 'hello'), undefined);
  assert.equal(await symbols.open('Makefile', 'all:'), undefined);
});
