// A git repository with a step patch and a gold patch over many files in several languages,
// for tests that hold `chainlens analyze` output to a recorded digest: the multi-language
// fixtures (test/fixtures/analysis), the pydicom pair, and generated Python modules whose step and
// gold edit overlapping functions (the bench's shape, bench/analysis.ts), with a renamed, an added,
// a deleted, a non-source and a syntactically broken file among them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generatedFunction, type Variant } from '../../../bench/lib/generatedModules';

const FIXTURES = join(__dirname, '../../fixtures');

function module(variant: Variant, f: number, hunks: number): string {
  let text = `"""Module ${f}."""\nimport os\n\n\n`;
  for (let i = 0; i < 2 * hunks + 4; i++) {
    const even = i % 2 === 0;
    const edited =
      even && (variant === 'gold' ? i < 2 * hunks : variant === 'step' ? i >= 2 && i < 2 * hunks + 2 : false);
    text += generatedFunction(i, variant, edited);
  }
  if (f % 4 === 1) text += `class Holder${f}:\n    def get(self):\n        return ${variant === 'base' ? 1 : 2}\n`;
  return text;
}

export interface PinnedRepo {
  readonly repo: string;
  readonly base: string;
  readonly stepDiff: string;
  readonly goldDiff: string;
  remove(): void;
}

export function pinnedRepo(files = 24, hunks = 4): PinnedRepo {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-pinned-'));
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: repo,
      maxBuffer: 1 << 28,
    }).toString();
  const put = (path: string, text: string | undefined) => {
    const at = join(repo, path);
    if (text === undefined) return rmSync(at, { force: true });
    mkdirSync(dirname(at), { recursive: true });
    writeFileSync(at, text);
  };
  const write = (variant: Variant) => {
    for (let f = 0; f < files; f++) put(`pkg${f % 3}/mod_${f}.py`, module(variant, f, hunks));
    for (const name of readdirSync(join(FIXTURES, 'analysis', variant)))
      put(`src/${name}`, readFileSync(join(FIXTURES, 'analysis', variant, name), 'utf8'));
    const numpy = readFileSync(join(FIXTURES, 'patches/pydicom-1458/numpy_handler.py'), 'utf8');
    put('pydicom/numpy_handler.py', numpy);
    put('README.txt', `notes\n${variant === 'base' ? '' : `${variant} was here\n`}`);
    put('broken.py', `def ok():\n    return 1\n${variant === 'step' ? 'def bad(:\n    pass\n' : ''}`);
    put('old_name.py', variant === 'step' ? undefined : 'def moved():\n    return 1\n');
    put('new_name.py', variant === 'step' ? 'def moved():\n    return 2\n' : undefined);
    put('gone.py', variant === 'gold' ? undefined : 'def gone():\n    return 0\n');
    put('fresh.py', variant === 'base' ? undefined : `def fresh():\n    return "${variant}"\n`);
  };
  write('base');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'base');
  const base = git('rev-parse', 'HEAD').trim();
  const diffs: Record<string, string> = {};
  for (const v of ['step', 'gold'] as const) {
    git('checkout', '-q', '-B', v, base);
    write(v);
    git('add', '-A');
    git('commit', '-qm', v);
    diffs[v] = join(dir, `${v}.diff`);
    writeFileSync(diffs[v], git('diff', '-M', base, v));
  }
  // The pydicom pair is applied to its file only by the patches below (the fixture's own diffs).
  const pydicom = (name: string) =>
    readFileSync(join(FIXTURES, 'patches/pydicom-1458', name), 'utf8').replaceAll(
      'pydicom/pixel_data_handlers/numpy_handler.py',
      'pydicom/numpy_handler.py',
    );
  writeFileSync(diffs.step, readFileSync(diffs.step, 'utf8') + pydicom('agent.diff'));
  writeFileSync(diffs.gold, readFileSync(diffs.gold, 'utf8') + pydicom('gold.diff'));
  git('checkout', '-q', base);
  return {
    repo,
    base,
    stepDiff: diffs.step,
    goldDiff: diffs.gold,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
