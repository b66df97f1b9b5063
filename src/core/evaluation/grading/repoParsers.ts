import { LOG_PARSER_NAMES, type EvalType, type GradingProfile, type LogParserName } from '../../../protocol/grading';

/**
 * The harness's MAP_REPO_TO_PARSER (the union of MAP_REPO_TO_PARSER_{PY,JS,GO,RUST,JAVA,C,PHP,RUBY}
 * in swebench/harness/log_parsers, current main; release 4.1 maps a subset of these repositories,
 * each to the same parser). The harness's per-repo Python aliases (parse_log_astroid = pytest, ...)
 * appear under the parser they alias.
 */
const PARSER_BY_REPO: Readonly<Record<string, LogParserName>> = {
  // Python
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
  // Go
  'caddyserver/caddy': 'gotest',
  'hashicorp/terraform': 'gotest',
  'prometheus/prometheus': 'gotest',
  'gohugoio/hugo': 'gotest',
  'gin-gonic/gin': 'gotest',
  // Rust
  'burntsushi/ripgrep': 'cargo',
  'sharkdp/bat': 'cargo',
  'astral-sh/ruff': 'cargo',
  'tokio-rs/tokio': 'cargo',
  'uutils/coreutils': 'cargo',
  'nushell/nushell': 'cargo',
  'tokio-rs/axum': 'cargo',
  // Java
  'google/gson': 'maven',
  'apache/druid': 'maven',
  'javaparser/javaparser': 'maven',
  'projectlombok/lombok': 'ant',
  'apache/lucene': 'gradle-custom',
  'reactivex/rxjava': 'gradle-custom',
  // C and C++
  'redis/redis': 'redis',
  'jqlang/jq': 'jq',
  'nlohmann/json': 'doctest',
  'micropython/micropython': 'micropython-test',
  'valkey-io/valkey': 'redis',
  'fmtlib/fmt': 'googletest',
  // PHP
  'phpoffice/phpspreadsheet': 'phpunit',
  'laravel/framework': 'phpunit',
  'php-cs-fixer/php-cs-fixer': 'phpunit',
  'briannesbitt/carbon': 'phpunit',
  // Ruby
  'jekyll/jekyll': 'jekyll',
  'fluent/fluentd': 'ruby-unit',
  'fastlane/fastlane': 'rspec-transformed-json',
  'jordansissel/fpm': 'rspec-transformed-json',
  'faker-ruby/faker': 'ruby-unit',
  'rubocop/rubocop': 'rspec-transformed-json',
  // JavaScript and TypeScript (Multilingual, then Multimodal)
  'babel/babel': 'jest',
  'vuejs/core': 'vitest',
  'facebook/docusaurus': 'jest',
  'immutable-js/immutable-js': 'immutable-js',
  'mrdoob/three.js': 'tap',
  'preactjs/preact': 'karma',
  'axios/axios': 'tap',
  'Automattic/wp-calypso': 'calypso',
  'chartjs/Chart.js': 'chart-js',
  'markedjs/marked': 'marked',
  'processing/p5.js': 'p5js',
  'diegomura/react-pdf': 'react-pdf',
  'alibaba-fusion/next': 'next',
  'bpmn-io/bpmn-js': 'bpmn-js',
  'carbon-design-system/carbon': 'carbon',
  'cypress-io/cypress': 'cypress',
  'emotion-js/emotion': 'emotion',
  'eslint/eslint': 'eslint',
  'GoogleChrome/lighthouse': 'lighthouse',
  'grommet/grommet': 'grommet',
  'highlightjs/highlight.js': 'highlightjs',
  'openlayers/openlayers': 'openlayers',
  'plotly/plotly.js': 'plotly-js',
  'prettier/prettier': 'carbon',
  'PrismJS/prism': 'prismjs',
  'quarto-dev/quarto-cli': 'quarto-cli',
  'scratchfoundation/scratch-gui': 'carbon',
};

const BY_LOWERCASE = new Map(Object.entries(PARSER_BY_REPO).map(([repo, parser]) => [repo.toLowerCase(), parser]));

/** The harness's Python parsers: their repositories get the Python eval script, all others the common one. */
export const PYTHON_LOG_PARSERS: ReadonlySet<LogParserName> = new Set([
  'pytest',
  'pytest-options',
  'pytest-v2',
  'django',
  'sympy',
  'seaborn',
  'matplotlib',
]);

/** The parser the harness maps `owner/name` to, or null for a repository it does not list. */
export function mappedParserForRepo(repo: string): LogParserName | null {
  const key = repo.trim();
  if (Object.hasOwn(PARSER_BY_REPO, key)) return PARSER_BY_REPO[key];
  // GitHub names are case-insensitive; the harness's keys are exact, so an exact key wins above.
  return BY_LOWERCASE.get(key.toLowerCase()) ?? null;
}

/** The parser for `owner/name`: the harness's mapping, else pytest (ChainSWE chains are mostly plain pytest repos). */
export function parserForRepo(repo: string): LogParserName {
  return mappedParserForRepo(repo) ?? 'pytest';
}

/** Every repository the harness maps, with its parser. */
export function mappedRepositories(): readonly (readonly [string, LogParserName])[] {
  return Object.entries(PARSER_BY_REPO);
}

// The harness's PARSER_REGISTRY keys (and mapped functions outside it) that alias another parser.
const HARNESS_ALIASES: Readonly<Record<string, LogParserName>> = {
  astroid: 'pytest',
  flask: 'pytest',
  marshmallow: 'pytest',
  pvlib: 'pytest',
  pyvista: 'pytest',
  sqlfluff: 'pytest',
  xarray: 'pytest',
  pydicom: 'pytest-options',
  requests: 'pytest-options',
  pylint: 'pytest-options',
  astropy: 'pytest-v2',
  scikit: 'pytest-v2',
  sphinx: 'pytest-v2',
  'scratch-gui': 'carbon',
  prettier: 'carbon',
  'lighthouse-jest': 'carbon',
};

/**
 * A parser by ChainLens's name (`gotest`) or by the harness's (`parse_log_gotest`, the form
 * SWE-bench datasets give in their `log_parser` field, aliases such as `parse_log_flask` included).
 * Null for a name neither knows.
 */
export function parserByName(name: string): LogParserName | null {
  const trimmed = name.trim();
  if ((LOG_PARSER_NAMES as readonly string[]).includes(trimmed)) return trimmed as LogParserName;
  const m = /^parse_(?:log_)?([a-z0-9_]+)$/.exec(trimmed);
  if (!m) return null;
  const short = m[1].replace(/_/g, '-');
  if ((LOG_PARSER_NAMES as readonly string[]).includes(short)) return short as LogParserName;
  return Object.hasOwn(HARNESS_ALIASES, short) ? HARNESS_ALIASES[short] : null;
}

/**
 * Repositories graded fail-only (their parsers record failures only), per harness version
 * (constants FAIL_ONLY_REPOS; v5 datasets also carry `eval_type` per instance, which wins).
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
