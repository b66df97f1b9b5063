// Issue 33, "wrong today" 1: the not-implemented statement `codethread build` writes into PR0
// (and each language's other idioms for it) is suggested INCOMPLETE and nothing else. Before,
// JS/TS `throw new Error("not implemented")` and Go `panic("not implemented")` were ERROR
// HANDLING (an IEC label) and RETURN SHAPE, Python's `raise NotImplementedError` INCOMPLETE and
// ERROR HANDLING, which inflated IEC. Each case builds the real PR0 with the skeleton builder,
// then analyses an agent's PR1 that restores one target and leaves the other as PR0 has it,
// against the human PR1 (step 1's gold: PR0 back to base), as `codethread report` does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { buildSkeleton } from '../../../src/core/codethread/skeleton';
import { notImplementedStatement } from '../../../src/core/codethread/notImplemented';
import type { LanguageId } from '../../../src/core/analysis/syntax';
import { parsePatch } from '../../../src/core/patch/parse';
import { TreeSitterParser } from '../../../src/infra/treesitter/parser';
import { analyzeOne } from '../analysis/helpers';

const parser = new TreeSitterParser();

interface Case {
  readonly language: LanguageId;
  readonly path: string;
  /** Two target functions: `restored` the agent writes back, `left` it leaves as PR0 has it. */
  readonly base: string;
  readonly restored: string;
  readonly left: string;
  /** Edits of each target's body (the gold patch of the follow-on issue). */
  readonly edits: ReadonlyArray<readonly [string, string]>;
}

const CASES: Case[] = [
  {
    language: 'python',
    path: 'shop/cart.py',
    base: `class Cart:
    def total(self, rate):
        """Sum of the lines, taxed."""
        if not self.lines:
            return 0
        return sum(self.lines) * rate

    def count(self):
        try:
            return len(self.lines)
        except TypeError:
            raise ValueError("no lines")
`,
    restored: 'Cart.count',
    left: 'Cart.total',
    edits: [
      ['sum(self.lines) * rate', 'round(sum(self.lines) * rate, 2)'],
      ['len(self.lines)', 'len(list(self.lines))'],
    ],
  },
  {
    language: 'javascript',
    path: 'src/shape.js',
    base: `export class Shape {
  area() {
    if (this.w < 0) throw new RangeError("negative");
    return this.w * this.h;
  }
}

export const double = (x) => x * 2;
`,
    restored: 'double',
    left: 'Shape.area',
    edits: [
      ['this.w * this.h;', 'Math.abs(this.w * this.h);'],
      ['x * 2', 'x * 2 + 0'],
    ],
  },
  {
    language: 'typescript',
    path: 'src/store.ts',
    base: `class Base {
  constructor(readonly n: number) {}
}

class Store extends Base {
  private items: string[];

  constructor(n: number) {
    super(n);
    if (n < 0) throw new Error("negative");
    this.items = [];
  }

  size(): number {
    return this.items.length;
  }
}
`,
    restored: 'Store.size',
    left: 'Store.constructor',
    edits: [
      ['this.items = [];', "this.items = ['x'];"],
      ['this.items.length', 'this.items.length + 0'],
    ],
  },
  {
    language: 'tsx',
    path: 'ui/Badge.tsx',
    base: `export function Badge({ n }: { n: number }) {
  if (n < 0) return null;
  return <span>{n}</span>;
}

export function Label({ t }: { t: string }) {
  return <b>{t}</b>;
}
`,
    restored: 'Label',
    left: 'Badge',
    edits: [
      ['<span>{n}</span>', '<span className="b">{n}</span>'],
      ['<b>{t}</b>', '<b className="l">{t}</b>'],
    ],
  },
  {
    language: 'go',
    path: 'server/server.go',
    base: `package server

// Run starts the server.
func (s *Server) Run() error {
	if s.addr == "" {
		return errors.New("no address")
	}
	return nil
}

func (s *Server) Addr() string {
	return s.addr
}
`,
    restored: 'Server.Addr',
    left: 'Server.Run',
    edits: [
      ['"no address"', '"no address given"'],
      ['return s.addr', 'return s.addr + ""'],
    ],
  },
  {
    language: 'java',
    path: 'src/main/java/demo/App.java',
    base: `package demo;

public class App {
    private final int n;

    public App(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative");
        }
        this.n = n;
    }

    public int twice() {
        return n * 2;
    }
}
`,
    restored: 'App.twice',
    left: 'App.App',
    edits: [
      ['this.n = n;', 'this.n = n + 0;'],
      ['return n * 2;', 'return n + n;'],
    ],
  },
  {
    language: 'rust',
    path: 'src/lib.rs',
    base: `pub fn total(xs: &[i32]) -> Result<i32, String> {
    if xs.is_empty() {
        return Err("empty".to_string());
    }
    Ok(xs.iter().sum())
}

pub fn count(xs: &[i32]) -> usize {
    xs.len()
}
`,
    restored: 'count',
    left: 'total',
    edits: [
      ['Ok(xs.iter().sum())', 'Ok(xs.iter().copied().sum())'],
      ['xs.len()', 'xs.len() + 0'],
    ],
  },
];

const patchOf = (path: string, before: string, after: string) =>
  createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, '', '', { context: 3 });

/** PR0 as `codethread build` writes it, and the agent's PR1: `restored` back, `left` still PR0's. */
async function pr0AndPr1(c: Case): Promise<{ pr0: string; pr1: string }> {
  const gold = c.edits.reduce((text, [from, to]) => text.replace(from, to), c.base);
  const r = await buildSkeleton({
    goldPatch: parsePatch(patchOf(c.path, c.base, gold), 'gold'),
    readFile: async (p) => (p === c.path ? c.base : undefined),
    parser,
  });
  assert.equal(r.kind, 'skeleton', r.kind === 'skipped' ? r.detail : '');
  if (r.kind !== 'skeleton') throw new Error('unreachable');
  assert.deepEqual(r.targets.map((t) => t.function).sort(), [c.left, c.restored].sort());
  const pr0 = r.files[0].skeleton;
  // PR1 = base with `left` stubbed again: PR0 with only `restored` implemented.
  const leftStub = await buildSkeleton({
    goldPatch: parsePatch(patchOf(c.path, c.base, c.base.replace(c.edits[0][0], c.edits[0][1])), 'gold'),
    readFile: async () => c.base,
    parser,
  });
  if (leftStub.kind !== 'skeleton') throw new Error(leftStub.detail);
  assert.deepEqual(
    leftStub.targets.map((t) => t.function),
    [c.left],
  );
  return { pr0, pr1: leftStub.files[0].skeleton };
}

for (const c of CASES) {
  test(`${c.language}: the PR0 stub (${notImplementedStatement(c.language)}) left in PR1 is INCOMPLETE and nothing else`, async () => {
    const { pr0, pr1 } = await pr0AndPr1(c);
    assert.ok(pr0.includes(notImplementedStatement(c.language)));
    // base = PR0, the step = the agent's PR1, gold = the human PR1 (the original code).
    const a = await analyzeOne(c.path, pr0, pr1, c.base);
    const left = a.drift.filter((d) => d.symbol === c.left);
    assert.deepEqual(
      left.map((d) => d.label),
      ['INCOMPLETE'],
      JSON.stringify(left.map((d) => [d.label, d.reason])),
    );
    assert.equal(left[0].iec, false);
    assert.match(left[0].reason, /only a not-implemented statement/);
    assert.equal(
      a.drift.some((d) => d.iec),
      false,
      JSON.stringify(a.drift.map((d) => [d.symbol, d.label])),
    );
  });
}

// The other idioms of each language, written by a person or an agent in place of a body:
// [language, path, gold's version, the step's version].
const PY = 'def f(x):\n    if x:\n        return 1\n    return 2\n';
const IDIOMS: ReadonlyArray<readonly [string, string, string, string]> = [
  ['python', 'm.py', PY, 'def f(x):\n    raise NotImplementedError("later")\n'],
  ['python', 'm.py', PY, 'def f(x):\n    """F."""\n    raise NotImplementedError()\n'],
  [
    'javascript',
    'm.js',
    'function f(x) {\n  if (x) return 1;\n  return 2;\n}\n',
    'function f(x) {\n  throw new Error("Not implemented yet");\n}\n',
  ],
  [
    'java',
    'M.java',
    'class M {\n    int f(int x) {\n        if (x > 0) {\n            return 1;\n        }\n        return 2;\n    }\n}\n',
    'class M {\n    int f(int x) {\n        throw new UnsupportedOperationException("not yet");\n    }\n}\n',
  ],
  [
    'rust',
    'm.rs',
    'fn f(x: i32) -> i32 {\n    if x > 0 {\n        return 1;\n    }\n    2\n}\n',
    'fn f(x: i32) -> i32 {\n    unimplemented!()\n}\n',
  ],
  [
    'go',
    'm.go',
    'package m\n\nfunc F(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 2\n}\n',
    'package m\n\nfunc F(x int) int {\n\tpanic("not implemented: F")\n}\n',
  ],
];

for (const [language, path, gold, step] of IDIOMS) {
  test(`${language}: ${step
    .split('\n')
    .find((l) => l.includes('mplemented'))
    ?.trim()} in place of a body is INCOMPLETE and nothing else`, async () => {
    // The base differs from both, so the step and gold each change the function.
    const a = await analyzeOne(path, gold.replace('1', '3'), step, gold);
    assert.deepEqual(
      a.drift.map((d) => d.label),
      ['INCOMPLETE'],
      JSON.stringify(a.drift.map((d) => [d.label, d.reason])),
    );
  });
}

test('a not-implemented statement in one branch is an INCOMPLETE marker, not an exception the code raises', async () => {
  const gold = 'def f(x, mode):\n    if mode == "a":\n        return x + 1\n    return x - 1\n';
  const step = 'def f(x, mode):\n    if mode == "a":\n        return x + 1\n    raise NotImplementedError(mode)\n';
  const a = await analyzeOne('m.py', gold.replace('x - 1', 'x - 2'), step, gold);
  const labels = a.drift.map((d) => d.label);
  assert.equal(labels[0], 'INCOMPLETE', JSON.stringify(labels));
  assert.equal(labels.includes('ERROR HANDLING'), false, JSON.stringify(labels));
});
