import { parsePatch } from '../../patch/parse';
import { shellWords } from './shell';

// The harness's test commands (swebench/harness/constants/python.py; the later TEST_PYTEST wins there).
export const TEST_PYTEST = 'pytest -rA';
export const TEST_DJANGO = './tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1';
export const TEST_DJANGO_NO_PARALLEL = './tests/runtests.py --verbosity 2';
export const TEST_SYMPY = "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose";

/** How test directives are spelled: file paths for pytest and sympy, dotted modules for django. */
export type TestRunnerKind = 'pytest' | 'django' | 'sympy';

// Copied as is from the harness, including "csv" without its dot.
const NON_TEST_EXTS = ['.json', '.png', 'csv', '.txt', '.md', '.jpg', '.jpeg', '.pkl', '.yml', '.yaml', '.toml'];

export function runnerKindForRepo(repo: string): TestRunnerKind {
  if (repo === 'django/django') return 'django';
  if (repo === 'sympy/sympy') return 'sympy';
  return 'pytest';
}

function isDjangoTestFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name === 'tests.py' || name.startsWith('test_') || path.includes('/tests/') || path.includes('/test_');
}

/**
 * The harness's test directives: the files the test patches touch, minus data files; for django,
 * test modules only, as dotted names relative to tests/. Files a test patch deletes are left out
 * (the harness's regex would name them and make pytest stop with "file not found").
 */
export function testDirectives(testPatches: readonly string[], kind: TestRunnerKind): string[] {
  const seen = new Set<string>();
  testPatches.forEach((patch, i) => {
    for (const f of parsePatch(patch, `test patch ${i + 1}`).files) {
      if (f.newPath !== null) seen.add(f.newPath);
    }
  });
  let directives = [...seen].filter((d) => !NON_TEST_EXTS.some((ext) => d.endsWith(ext)));
  if (kind === 'django') {
    directives = directives
      .filter(isDjangoTestFile)
      .map((d) => (d.endsWith('.py') ? d.slice(0, -3) : d))
      .map((d) => (d.startsWith('tests/') ? d.slice('tests/'.length) : d))
      .map((d) => d.replace(/\//g, '.'));
  }
  return directives;
}

export interface TestCommandInput {
  /** `owner/name`; picks django's and sympy's runners like the harness does. */
  readonly repo: string;
  readonly version?: string | null;
  /** The dataset's own command (ChainSWE `test_cmds`), used verbatim when present. */
  readonly testCmds?: string | null;
  readonly testPatches: readonly string[];
}

/** The command the eval script runs between the markers. */
export function testCommandFor(input: TestCommandInput): string {
  if (input.testCmds && input.testCmds.trim() !== '') return input.testCmds.trim();
  const kind = runnerKindForRepo(input.repo);
  const base =
    kind === 'django'
      ? input.version === '1.9'
        ? TEST_DJANGO_NO_PARALLEL
        : TEST_DJANGO
      : kind === 'sympy'
        ? TEST_SYMPY
        : TEST_PYTEST;
  const directives = testDirectives(input.testPatches, kind);
  return directives.length ? `${base} ${shellWords(directives)}` : base;
}
