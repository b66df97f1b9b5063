// CodeThread's four maintainability metrics per function (Section 5.1, Appendix D.1, Table A3;
// docs/reference/maintainability.md). Python: CC, LLOC and Halstead against radon 6.0.1 on real
// functions of CPython's standard library (the values radon itself gave, radon-6.0.1.json, made
// by scripts/radon-truth.py: radon is not a Debian package, so it cannot run here). Cognitive
// complexity and the other languages: values worked out by hand, each citing the rule it follows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { symbols } from './helpers';
import type { FunctionMaintainability } from '../../../src/core/analysis/maintainability';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'maintainability');

async function metricsOf(path: string, text: string): Promise<Map<string, FunctionMaintainability>> {
  const outline = await symbols.open(path, text);
  assert.ok(outline, `no grammar for ${path}`);
  const out = new Map<string, FunctionMaintainability>();
  for (const s of outline.symbols)
    if (s.kind !== 'class') out.set(s.qualifiedName, outline.maintainability(s.qualifiedName)!);
  outline.dispose();
  return out;
}

async function one(path: string, text: string): Promise<FunctionMaintainability> {
  const all = await metricsOf(path, text);
  assert.equal(all.size, 1, [...all.keys()].join(', '));
  return [...all.values()][0];
}

interface RadonTruth {
  readonly radon: string;
  readonly functions: Record<
    string,
    { cc: number; lloc: number; halstead: { h1: number; h2: number; N1: number; N2: number; volume: number } }
  >;
}

test('Python: CC, LLOC and Halstead equal radon 6.0.1 on real standard-library functions', async () => {
  const truth = JSON.parse(readFileSync(join(FIXTURES, 'radon-6.0.1.json'), 'utf8')) as RadonTruth;
  const ours = await metricsOf('python-stdlib.py', readFileSync(join(FIXTURES, 'python-stdlib.py'), 'utf8'));
  const names = Object.keys(truth.functions);
  assert.ok(names.length >= 20, `${names.length} functions`);
  for (const name of names) {
    const r = truth.functions[name];
    const m = ours.get(name);
    assert.ok(m, `ChainLens found no function ${name}`);
    assert.equal(m.cyclomatic, r.cc, `${name}: CC`);
    assert.equal(m.lloc, r.lloc, `${name}: LLOC`);
    assert.deepEqual(
      [m.halstead.distinctOperators, m.halstead.distinctOperands, m.halstead.operators, m.halstead.operands],
      [r.halstead.h1, r.halstead.h2, r.halstead.N1, r.halstead.N2],
      `${name}: Halstead counts`,
    );
    assert.ok(
      Math.abs(m.halsteadVolume - r.halstead.volume) < 1e-9,
      `${name}: volume ${m.halsteadVolume} vs ${r.halstead.volume}`,
    );
  }
});

test('Python CC follows radon on assert, loop else and try/else (2, 4, 3; issue 33 found 1, 3, 2)', async () => {
  // radon/visitors.py: visit_Assert +1 (and not its operands); For/While +1 + bool(orelse);
  // Try + len(handlers) + bool(orelse). Each function starts at 1.
  assert.equal((await one('m.py', 'def f(x):\n    assert x and x > 0\n    return x\n')).cyclomatic, 2);
  assert.equal(
    (
      await one(
        'm.py',
        'def f(xs):\n    for x in xs:\n        if x:\n            break\n    else:\n        return 0\n    return 1\n',
      )
    ).cyclomatic,
    4,
  );
  assert.equal(
    (
      await one(
        'm.py',
        'def f():\n    try:\n        g()\n    except ValueError:\n        h()\n    else:\n        k()\n',
      )
    ).cyclomatic,
    3,
  );
});

test('cognitive complexity: the white paper worked examples (sumOfPrimes 7, getWords 1)', async () => {
  // Campbell, "Cognitive Complexity" (SonarSource), Appendix C: for +1, nested for +2 (nesting 1),
  // nested if +3 (nesting 2), `continue OUT` +1 (jump to a label) = 7; a switch +1 = 1.
  const java = `class A {
    int sumOfPrimes(int max) {
        int total = 0;
        OUT: for (int i = 1; i <= max; ++i) {
            for (int j = 2; j < i; ++j) {
                if (i % j == 0) {
                    continue OUT;
                }
            }
            total += i;
        }
        return total;
    }

    String getWords(int number) {
        switch (number) {
            case 1:
                return "one";
            case 2:
                return "a couple";
            case 3:
                return "a few";
            default:
                return "lots";
        }
    }
}
`;
  const m = await metricsOf('A.java', java);
  assert.equal(m.get('A.sumOfPrimes')?.cognitive, 7);
  assert.equal(m.get('A.getWords')?.cognitive, 1);
});

test('cognitive complexity per language, worked by hand', async () => {
  // Python (complexipy's additions): for +1; if +2 (nesting 1) and `and` +1 (a sequence of like
  // operators); elif +1; else +1; the comprehension's for +1 (nesting 0) and its if +1 = 8.
  const py = `def f(xs, t):
    for x in xs:
        if x > t and x < 10:
            return x
        elif x == t:
            continue
        else:
            pass
    return [y for y in xs if y]
`;
  assert.equal((await one('m.py', py)).cognitive, 8);
  // Recursion +1 (once per function), the ternary +1.
  assert.equal((await one('m.py', 'def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\n')).cognitive, 2);
  // `a and b or c and d`: three runs of like operators (and | or | and) +3, inside an if +1.
  assert.equal((await one('m.py', 'def f(a, b, c, d):\n    if a and b or c and d:\n        return 1\n')).cognitive, 4);
  // Go: range loop +1; if +2 (nesting 1), `||` +1; switch +1 = 5 (no increment for case).
  const go = `package m

func F(xs []int) int {
	for _, x := range xs {
		if x > 0 || x < -5 {
			return x
		}
	}
	switch len(xs) {
	case 0:
		return 0
	}
	return -1
}
`;
  assert.equal((await one('m.go', go)).cognitive, 5);
  // TypeScript: the lambda raises nesting to 1 without an increment; if +2; ternary +2 = 4.
  const ts = `function f(xs: number[]): number[] {
  return xs.filter((x) => {
    if (x > 0) {
      return true;
    }
    return x === 0 ? true : false;
  });
}
`;
  assert.equal((await one('m.ts', ts)).cognitive, 4);
  // JavaScript: if +1, else if +1, else +1 (no nesting increments for else if / else) = 3.
  const js =
    'function g(x) {\n  if (x > 1) {\n    return 1;\n  } else if (x < 0) {\n    return -1;\n  } else {\n    return 0;\n  }\n}\n';
  assert.equal((await one('m.js', js)).cognitive, 3);
  // Rust: match +1; the if in an arm +2 (nesting 1); its else +1 = 4.
  const rs =
    'fn f(x: Option<i32>) -> i32 {\n    match x {\n        Some(v) => if v > 0 { v } else { 0 },\n        None => 0,\n    }\n}\n';
  assert.equal((await one('m.rs', rs)).cognitive, 4);
});

test('Halstead volume, worked by hand: radon for Python, every token for the others', async () => {
  // radon: `a + b * 2` is BinOp(+, a, BinOp(*, b, 2)): operators + and * (η1 2, N1 2); operands a,
  // the inner operation (an operand of its own), b, 2 (η2 4, N2 4). V = 6 · log2(6).
  const py = await one('m.py', 'def f(a, b):\n    return a + b * 2\n');
  assert.deepEqual(py.halstead, { distinctOperators: 2, distinctOperands: 4, operators: 2, operands: 4 });
  assert.ok(Math.abs(py.halsteadVolume - 6 * Math.log2(6)) < 1e-12);
  // JavaScript: operators function ( { return + ; (closers not counted: η1 6, N1 6); operands f a a 1
  // (η2 3, N2 4). V = 10 · log2(9).
  const js = await one('m.js', 'function f(a) { return a + 1; }\n');
  assert.deepEqual(js.halstead, { distinctOperators: 6, distinctOperands: 3, operators: 6, operands: 4 });
  assert.ok(Math.abs(js.halsteadVolume - 10 * Math.log2(9)) < 1e-12);
  // An empty vocabulary has volume 0 (radon's guard), not NaN.
  assert.equal((await one('m.py', 'def f():\n    pass\n')).halsteadVolume, 0);
});

test('LLOC: radon raw for Python (its colon rule included), statements for the others', async () => {
  // radon/raw.py _logical: def 1, docstring 1, `if x: return 1` 2, `a = 1; b = 2` 2, the dict
  // `{1: 2}` 2 (a colon that is not last), return 1; the comment 0 = 9.
  const py =
    'def f(x):\n    """Doc."""\n    # note\n    if x: return 1\n    a = 1; b = 2\n    d = {1: 2}\n    return d\n';
  assert.equal((await one('m.py', py)).lloc, 9);
  // JavaScript: the declaration, the if and its return, the final return = 4 statements.
  const js = 'function f(x) {\n  const y = x + 1;\n  if (y) {\n    return y;\n  }\n  return 0;\n}\n';
  assert.equal((await one('m.js', js)).lloc, 4);
});
