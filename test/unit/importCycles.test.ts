// No module of src imports itself back through others (docs/ARCHITECTURE.md): a cycle makes load
// order matter and ties features that should only meet through services. Type-only imports count
// too: they tie the modules' meanings together even when the bundle drops them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const IMPORT =
  /(?:^|\n)\s*(?:import|export)[^'"\n;]*?(?:from\s*)?['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(root, dir, f));
}

/** The file a relative import names (x.ts, or x/index.ts), or undefined for anything else. */
function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .map((m) => resolveImport(file, m[1] ?? m[2]))
      .filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle found by depth-first search, each as the chain of files (first file repeated last). */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

test('no import cycles in src', () => {
  const cycles = findCycles(importGraph(sourceFiles('src')));
  assert.deepEqual(
    cycles.map((c) => c.map((f) => relative(root, f)).join(' -> ')),
    [],
  );
});

test('the cycle finder finds a cycle (guards against a check that cannot fail)', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ]);
  assert.deepEqual(findCycles(graph), [['a', 'b', 'c', 'a']]);
  assert.deepEqual(
    findCycles(
      new Map([
        ['a', ['b']],
        ['b', []],
      ]),
    ),
    [],
  );
});
