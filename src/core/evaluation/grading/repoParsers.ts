import type { EvalType, GradingProfile, LogParserName } from '../../../protocol/grading';

/** The harness's MAP_REPO_TO_PARSER_PY, by parser name. Repositories not listed use pytest. */
const PARSER_BY_REPO: Readonly<Record<string, LogParserName>> = {
  'astropy/astropy': 'pytest-v2',
  'django/django': 'django',
  'marshmallow-code/marshmallow': 'pytest',
  'matplotlib/matplotlib': 'matplotlib',
  'mwaskom/seaborn': 'seaborn',
  'pallets/flask': 'pytest',
  'psf/requests': 'pytest-options',
  'pvlib/pvlib-python': 'pytest',
  'pydata/xarray': 'pytest',
  'pydicom/pydicom': 'pytest-options',
  'pylint-dev/astroid': 'pytest',
  'pylint-dev/pylint': 'pytest-options',
  'pytest-dev/pytest': 'pytest',
  'pyvista/pyvista': 'pytest',
  'scikit-learn/scikit-learn': 'pytest-v2',
  'sqlfluff/sqlfluff': 'pytest',
  'sphinx-doc/sphinx': 'pytest-v2',
  'sympy/sympy': 'sympy',
};

/** The parser the harness uses for `owner/name` (ChainSWE chains are mostly plain pytest repos). */
export function parserForRepo(repo: string): LogParserName {
  const key = repo.trim();
  return Object.hasOwn(PARSER_BY_REPO, key) ? PARSER_BY_REPO[key] : 'pytest';
}

/**
 * Repositories graded fail-only (their parsers record failures only), per harness version.
 * They are JavaScript repositories, listed so a chain of them grades as the harness would.
 */
const FAIL_ONLY_REPOS: Readonly<Record<GradingProfile, readonly string[]>> = {
  'swebench-v4': ['chartjs/Chart.js', 'processing/p5.js', 'markedjs/marked'],
  'swebench-v5': [
    'chartjs/Chart.js',
    'processing/p5.js',
    'markedjs/marked',
    'bpmn-io/bpmn-js',
    'openlayers/openlayers',
    'eslint/eslint',
  ],
};

export function evalTypeForRepo(repo: string, profile: GradingProfile): EvalType {
  return FAIL_ONLY_REPOS[profile].includes(repo.trim()) ? 'fail_only' : 'pass_and_fail';
}
