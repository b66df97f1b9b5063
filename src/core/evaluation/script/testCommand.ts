import { parsePatch } from '../../patch/parse';
import { UserError } from '../../util/errors';
import { HARNESS_SPECS } from './harnessSpecs';
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
  /** The dataset's own command (ChainSWE `test_cmds`, a v5 dataset's eval script), used verbatim when present. */
  readonly testCmds?: string | null;
  readonly testPatches: readonly string[];
  /** SWE-bench Pro's selected tests: such a step runs Pro's own run script, which ChainLens lacks. */
  readonly testFiles?: readonly string[];
  /** For messages: the step's instance. */
  readonly instanceId?: string;
}

/**
 * The command the eval script runs between the markers (several lines for runners the harness
 * calls once per test). Order: the dataset's own command; the harness's spec for a non-Python
 * repository and version (docs/reference/grading.md); the Python rules.
 */
export function testCommandFor(input: TestCommandInput): string {
  if (input.testCmds && input.testCmds.trim() !== '') return input.testCmds.trim();
  if (input.testFiles !== undefined) {
    throw new UserError(
      `${input.instanceId ?? 'this step'} is a SWE-bench Pro instance: Pro runs each instance's own run_scripts/<instance_id>/run_script.sh with its selected tests (${input.testFiles.join(', ')}), which the dataset does not carry; put that command in the instance's test_cmds field`,
      'input',
    );
  }
  const spec = harnessSpecFor(input.repo, input.version);
  if (spec) {
    if (input.repo === CALYPSO) return calypsoTestCommands(input.testPatches, input.version ?? '').join('\n');
    return spec.test.join('\n');
  }
  if (Object.hasOwn(HARNESS_SPECS, input.repo)) {
    const known = Object.keys(HARNESS_SPECS[input.repo].versions);
    throw new UserError(
      `${input.instanceId ?? input.repo}: the harness has no test command for ${input.repo} version '${input.version ?? ''}' (it knows ${known.slice(0, 8).join(', ')}${known.length > 8 ? ', …' : ''}); give the instance a test_cmds or eval_script field`,
      'input',
    );
  }
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

/** The harness's spec of a non-Python repository at one version, if it has one. */
export function harnessSpecFor(repo: string, version: string | null | undefined) {
  if (!Object.hasOwn(HARNESS_SPECS, repo) || version === null || version === undefined) return undefined;
  const versions = HARNESS_SPECS[repo].versions;
  return Object.hasOwn(versions, version) ? versions[version] : undefined;
}

/** The step's build commands: its own (from an eval script), else the harness's spec for the repository and version. */
export function buildCommandFor(input: {
  repo: string;
  version?: string | null;
  buildCmd?: string;
}): string | undefined {
  if (input.buildCmd !== undefined) return input.buildCmd.trim() === '' ? undefined : input.buildCmd;
  const build = harnessSpecFor(input.repo, input.version)?.build;
  return build && build.length ? build.join('\n') : undefined;
}

const CALYPSO = 'Automattic/wp-calypso';
const CALYPSO_JS_CONFIG = ['10.10.0', '10.12.0', '10.13.0', '10.14.0', '10.15.2', '10.16.3'];
const CALYPSO_JSON_CONFIG = [
  '6.11.5',
  '8.9.1',
  '8.9.3',
  '8.9.4',
  '8.11.0',
  '8.11.2',
  '10.4.1',
  '10.5.0',
  '10.6.0',
  '10.9.0',
];
const SNAPSHOT = /__snapshots__\/(.*).js.snap$/;

/**
 * The harness's get_test_cmds_calypso (test_spec/javascript.py): one jest (or npm) command per file
 * the test patch touches, its package's config chosen by version; snapshots run their test dir.
 */
function calypsoTestCommands(testPatches: readonly string[], version: string): string[] {
  const cmds: string[] = [];
  testPatches.forEach((patch, i) => {
    for (const f of parsePatch(patch, `test patch ${i + 1}`).files) {
      let path = (f.newPath ?? f.oldPath) as string;
      if (SNAPSHOT.test(path)) path = path.split('/').slice(0, -2).join('/');
      if (path.startsWith('client') || path.startsWith('packages')) {
        const pkg = path.split('/')[0];
        if (CALYPSO_JS_CONFIG.includes(version))
          cmds.push(`./node_modules/.bin/jest --verbose -c=test/${pkg}/jest.config.js '${path}'`);
        else if (CALYPSO_JSON_CONFIG.includes(version))
          cmds.push(`./node_modules/.bin/jest --verbose -c=test/${pkg}/jest.config.json '${path}'`);
        else cmds.push(`npm run test-${pkg} --verbose '${path}'`);
      } else if (path.startsWith('test/e2e')) {
        cmds.push('cd test/e2e', `NODE_CONFIG_ENV=test npm run test ${path}`, 'cd ../..');
      }
    }
  });
  return cmds;
}
