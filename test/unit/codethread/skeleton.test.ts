// PR0 skeletons on real tree-sitter grammars, one language at a time: the gold patch's target
// functions lose their bodies (signature, decorators and docstring kept) and the result parses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { buildSkeleton, type SkeletonResult } from '../../../src/core/codethread/skeleton';
import { parsePatch } from '../../../src/core/patch/parse';
import { TreeSitterParser } from '../../../src/infra/treesitter/parser';

const parser = new TreeSitterParser();

function skeletonOf(path: string, base: string, gold: string): Promise<SkeletonResult> {
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, base, gold, '', '', { context: 3 });
  return buildSkeleton({
    goldPatch: parsePatch(patch, 'gold'),
    readFile: async (p) => (p === path ? base : undefined),
    parser,
  });
}

async function expectSkeleton(path: string, base: string, gold: string, targets: string[], skeleton: string) {
  const r = await skeletonOf(path, base, gold);
  assert.equal(r.kind, 'skeleton', r.kind === 'skipped' ? r.detail : '');
  if (r.kind !== 'skeleton') return;
  assert.deepEqual(
    r.targets.map((t) => t.function),
    targets,
  );
  assert.equal(r.files[0].skeleton, skeleton);
}

test('python: the changed method keeps decorator, signature and docstring; the unchanged one stays', async () => {
  const base = `import functools


class Cart:
    """A cart."""

    @functools.cache
    def total(self, rate: float = 0.0) -> float:
        """Sum of the lines, taxed at rate."""
        subtotal = sum(line.price for line in self.lines)
        return subtotal * (1 + rate)

    def count(self):
        return len(self.lines)
`;
  const gold = base.replace('return subtotal * (1 + rate)', 'return round(subtotal * (1 + rate), 2)');
  await expectSkeleton(
    'shop/cart.py',
    base,
    gold,
    ['Cart.total'],
    base.replace(
      `        subtotal = sum(line.price for line in self.lines)
        return subtotal * (1 + rate)`,
      '        raise NotImplementedError',
    ),
  );
});

test('python: a nested function changed inside a changed function goes with the outer body', async () => {
  const base = `def outer(xs):
    def inner(x):
        return x + 1
    return [inner(x) for x in xs]
`;
  const gold = base.replace('return x + 1', 'return x + 2').replace('for x in xs]', 'for x in xs if x]');
  await expectSkeleton('m.py', base, gold, ['outer'], 'def outer(xs):\n    raise NotImplementedError\n');
});

test('javascript: a method and an arrow function with an expression body', async () => {
  const base = `export class Shape {
  area() {
    return this.w * this.h;
  }
}

export const double = (x) => x * 2;
`;
  const gold = base.replace('this.w * this.h', 'Math.abs(this.w * this.h)').replace('x * 2', 'x * 2 + 0');
  await expectSkeleton(
    'src/shape.js',
    base,
    gold,
    ['Shape.area', 'double'],
    `export class Shape {
  area() {
    throw new Error("not implemented");
  }
}

export const double = (x) => {
  throw new Error("not implemented");
};
`,
  );
});

test('typescript: a derived constructor keeps its super() call', async () => {
  const base = `class Base {
  constructor(readonly n: number) {}
}

class Store extends Base {
  private items: string[];

  constructor(n: number) {
    super(n);
    this.items = [];
  }
}
`;
  const gold = base.replace('this.items = [];', "this.items = ['x'];");
  await expectSkeleton(
    'src/store.ts',
    base,
    gold,
    ['Store.constructor'],
    base.replace(
      `    super(n);
    this.items = [];`,
      `    super(n);
    throw new Error("not implemented");`,
    ),
  );
});

test('tsx: a function component', async () => {
  const base = `export function Badge({ n }: { n: number }) {
  return <span>{n}</span>;
}
`;
  const gold = base.replace('<span>{n}</span>', '<span className="b">{n}</span>');
  await expectSkeleton(
    'ui/Badge.tsx',
    base,
    gold,
    ['Badge'],
    'export function Badge({ n }: { n: number }) {\n  throw new Error("not implemented");\n}\n',
  );
});

test('go: a method with a receiver panics, with tabs', async () => {
  const base = `package server

// Run starts the server.
func (s *Server) Run() error {
	if s.addr == "" {
		return errors.New("no address")
	}
	return nil
}
`;
  const gold = base.replace('"no address"', '"no address given"');
  await expectSkeleton(
    'server/server.go',
    base,
    gold,
    ['Server.Run'],
    `package server

// Run starts the server.
func (s *Server) Run() error {
	panic("not implemented")
}
`,
  );
});

test('java: a method throws; a constructor keeps this(...)', async () => {
  const base = `package demo;

public class App {
    private final int n;

    public App() {
        this(3);
        System.out.println("made");
    }

    public App(int n) {
        this.n = n;
    }

    /** Twice n. */
    @Override
    public int twice() {
        return n * 2;
    }
}
`;
  const gold = base.replace('return n * 2;', 'return n + n;').replace('"made"', '"created"');
  await expectSkeleton(
    'src/main/java/demo/App.java',
    base,
    gold,
    ['App.App', 'App.twice'],
    base
      .replace('        System.out.println("made");\n', '        throw new UnsupportedOperationException();\n')
      .replace('        return n * 2;', '        throw new UnsupportedOperationException();'),
  );
});

test('rust: an impl method becomes todo!()', async () => {
  const base = `impl Wrapper {
    /// The inner value.
    pub fn get(&self) -> u32 {
        self.value + 1
    }
}
`;
  const gold = base.replace('self.value + 1', 'self.value');
  await expectSkeleton(
    'src/lib.rs',
    base,
    gold,
    ['Wrapper.get'],
    `impl Wrapper {
    /// The inner value.
    pub fn get(&self) -> u32 {
        todo!()
    }
}
`,
  );
});

test('skipped: only module-level code, only a new function, only a signature, only a docstring, no code file', async () => {
  const base = `LIMIT = 3


def f(x):
    """Doc."""
    return x
`;
  const cases: [string, string, string][] = [
    ['m.py', base.replace('LIMIT = 3', 'LIMIT = 4'), 'no-function-body'],
    ['m.py', base + '\n\ndef g():\n    return 1\n', 'no-function-body'],
    ['m.py', base.replace('def f(x):', 'def f(x, y=0):'), 'no-function-body'],
    ['m.py', base.replace('"""Doc."""', '"""Better doc."""'), 'no-function-body'],
    ['README.md', base.replace('3', '4'), 'no-code-files'],
  ];
  for (const [path, gold, reason] of cases) {
    const r = await skeletonOf(path, base, gold);
    assert.equal(r.kind, 'skipped');
    if (r.kind === 'skipped') assert.equal(r.reason, reason, `${path}: ${r.detail}`);
  }
});

test('skipped: a base that does not parse is named with its line', async () => {
  const base = 'def f(x):\n    return x +\n';
  const r = await skeletonOf('m.py', base, base.replace('x +', 'x + 1'));
  assert.deepEqual(r.kind === 'skipped' && [r.reason, r.detail], [
    'base-does-not-parse',
    'm.py has a syntax error at line 2 at the base commit',
  ]);
});
