// Every document the code and the docs point to is in the repository. A comment citing a design
// note that lives elsewhere ("see DESIGN.md §3") sends the next engineer nowhere; cite docs/.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..', '..', '..');
/** This file names the documents it looks for. */
const SELF = 'test/unit/repo/docReferences.test.ts';

/** Text files that may cite documents (CHANGELOG.md is history: it may name what no longer exists). */
const TEXT = /\.(ts|tsx|mts|mjs|js|json|md|sh|py|yml|yaml)$/;

function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0'))].filter(
    (f) =>
      TEXT.test(f) &&
      f !== 'CHANGELOG.md' &&
      f !== SELF &&
      !f.startsWith('test/fixtures/') &&
      existsSync(join(root, f)),
  );
}

/**
 * Documents a text refers to: `docs/…/x.md` paths (from the repository root), upper-case
 * document names (`CONTRIBUTING.md`, found anywhere in the repository), and Markdown links to
 * `.md` files and `../x.md` paths (relative to the citing file).
 */
export function documentReferences(file: string, text: string): { cited: string; candidates: string[] }[] {
  const out: { cited: string; candidates: string[] }[] = [];
  for (const m of text.matchAll(/(?<![\w./-])docs\/[\w./-]+?\.md\b/g)) out.push({ cited: m[0], candidates: [m[0]] });
  for (const m of text.matchAll(/(?<![\w./'"-])[A-Z][A-Z_-]+\.md\b/g)) out.push({ cited: m[0], candidates: [] });
  for (const m of text.matchAll(/(?<![\w.-])(?:\.\.\/)+[\w./-]+\.md\b/g))
    out.push({ cited: m[0], candidates: [normalize(join(dirname(file), m[0]))] });
  if (file.endsWith('.md'))
    for (const m of text.matchAll(/\]\(([^)#\s:]+\.md)(?:#[^)]*)?\)/g))
      out.push({ cited: m[1], candidates: [normalize(join(dirname(file), m[1]))] });
  return out;
}

test('every document the code, scripts and docs cite is in the repository', () => {
  const files = repositoryFiles();
  const names = new Set(files.map((f) => basename(f)));
  const missing: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const { cited, candidates } of documentReferences(file, text)) {
      // A path that leaves the repository is missing from every clone, whatever this machine has there.
      const inRepository = (c: string) => !c.startsWith('..') && existsSync(join(root, c));
      const found = candidates.length ? candidates.some(inRepository) : names.has(cited);
      if (!found) missing.push(`${file}: ${cited}`);
    }
  }
  assert.deepEqual([...new Set(missing)], [], 'documents cited but not in the repository (cite docs/ instead):');
});

test('references are found in code comments, Markdown links and prose (failure injection on text)', () => {
  const refs = (file: string, text: string) => documentReferences(file, text).map((r) => r.cited);
  assert.deepEqual(refs('src/a.ts', '// see REFERENCE.md §5 and docs/reference/grading.md'), [
    'docs/reference/grading.md',
    'REFERENCE.md',
  ]);
  assert.deepEqual(refs('docs/README.md', 'read [the design](ARCHITECTURE.md#layers) and x.md'), [
    'ARCHITECTURE.md',
    'ARCHITECTURE.md',
  ]);
  assert.deepEqual(refs('README.md', 'see `../shared/DESIGN.md`'), ['../shared/DESIGN.md']);
  assert.deepEqual(refs('src/a.ts', "mydocs/x.md, a.DESIGN.md, writeFileSync('NEXT.md')"), []);
});
