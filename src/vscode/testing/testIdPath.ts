// How the Testing view shows a test id of any runner the harness grades. Pure (no 'vscode'), so
// it is unit-tested on the ids each parser produces (docs/reference/grading.md lists their shapes).
import type { LogParserName } from '../../protocol/grading';
import { PYTHON_LOG_PARSERS } from '../../core/evaluation/grading/repoParsers';

/** A test id read as a hierarchy: the suites (files, classes, describe blocks, parent tests) and the test's own name. */
export interface TestIdPath {
  readonly path: readonly string[];
  readonly name: string;
}

/** Separators a parser joins its suites with, where the id alone would be ambiguous. */
const SEPARATOR_BY_PARSER: Partial<Record<LogParserName, string>> = {
  calypso: ' - ',
  next: ' - ',
  lighthouse: ' - ',
  p5js: ':',
  'micropython-test': '/',
  jq: '/',
};

/**
 * The hierarchy in a test id. With the parser that produced it, its own joining rule; without,
 * the shapes no other runner's ids take: pytest and cargo `a::b::c`, unittest `name (module.Class)`,
 * jest's console `describe › test`, the ` > ` of jest --json, vitest, karma, PHPUnit, doctest and
 * Gradle, JUnit `Class#method`, Go subtests `TestX/sub/case`.
 */
export function testIdPath(id: string, parser?: LogParserName): TestIdPath {
  const separator = parser ? SEPARATOR_BY_PARSER[parser] : undefined;
  if (separator) return split(id, separator);
  if (parser === 'googletest' || parser === 'highlightjs') return splitOnce(id, '.');
  if (parser === 'maven' || parser === 'ant' || parser === 'minitest') {
    if (id.includes('#')) return splitOnce(id, '#');
    if (parser !== 'minitest') return junitDotted(id);
  }
  if (parser === 'gotest') return split(id, '/');
  if (parser === 'plotly-js') return split(id, '.');
  if (id.includes('::')) return splitColons(id);
  const unittest = /^(\S+) \((.+)\)$/.exec(id);
  if (unittest)
    return {
      path: [unittest[2].endsWith(`.${unittest[1]}`) ? unittest[2].slice(0, -unittest[1].length - 1) : unittest[2]],
      name: unittest[1],
    };
  const rubyUnit = /^([^\s(]+)\(([\w:]+)\)$/.exec(id);
  if (rubyUnit) return { path: [rubyUnit[2]], name: rubyUnit[1] };
  if (id.includes(' › ')) return split(id, ' › ');
  if (id.includes(' > ')) return split(id, ' > ');
  if (/^[\w.$]+#[\w$]+$/.test(id)) return splitOnce(id, '#');
  if (/^(Test|Benchmark|Example|Fuzz)\w*\//.test(id)) return split(id, '/');
  return { path: [], name: id };
}

/**
 * The label of a test item. Python tests keep their own name (the item's location shows the file);
 * others show their suites too, as `suite › name`, since the Testing view lists a step's tests flat.
 */
export function testItemLabel(id: string, parser?: LogParserName): string {
  const { path, name } = testIdPath(id, parser);
  if (
    path.length === 0 ||
    (parser !== undefined && PYTHON_LOG_PARSERS.has(parser)) ||
    (parser === undefined && isPytestId(id))
  )
    return name;
  return [...path, name].join(' › ');
}

function isPytestId(id: string): boolean {
  const first = id.split('::')[0];
  return id.includes('::') && /\.py$/.test(first);
}

function split(id: string, separator: string): TestIdPath {
  const parts = id.split(separator);
  return { path: parts.slice(0, -1), name: parts[parts.length - 1] };
}

function splitOnce(id: string, separator: string): TestIdPath {
  const i = id.indexOf(separator);
  return i < 0 ? { path: [], name: id } : { path: [id.slice(0, i)], name: id.slice(i + separator.length) };
}

// `com.example.FooTest.testBar`: the class is up to the last dot (packages stay with it).
function junitDotted(id: string): TestIdPath {
  const i = id.lastIndexOf('.');
  return i < 0 ? { path: [], name: id } : { path: [id.slice(0, i)], name: id.slice(i + 1) };
}

// pytest's `file::Class::test[param::x]`: `::` inside the parameter brackets does not split.
function splitColons(id: string): TestIdPath {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < id.length; i++) {
    if (id[i] === '[') depth++;
    else if (id[i] === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && id.startsWith('::', i)) {
      parts.push(id.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  parts.push(id.slice(start));
  return { path: parts.slice(0, -1), name: parts[parts.length - 1] };
}

/**
 * For an id the harness's parser cut short (pytest's parsers keep a line's text up to its first
 * space, so `test_x[12.00 USD]` is recorded as `test_x[12.00`): a note saying so, since a bracket
 * left open otherwise reads like a ChainLens bug. Undefined for a whole id.
 */
export function truncatedIdNote(id: string): string | undefined {
  let depth = 0;
  for (const ch of id) {
    if (ch === '[') depth++;
    else if (ch === ']') depth = Math.max(0, depth - 1);
  }
  // The reason first: it is what shows beside the label; screen readers read all of it, name included.
  return depth > 0
    ? `cut at a space (the id as the harness's log parser records it): ${testIdPath(id).name}`
    : undefined;
}
