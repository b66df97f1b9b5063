// Loads the real eval logs captured by scripts/make-log-corpus.sh (test/fixtures/logs/corpus).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS_DIR = join(__dirname, '../../../fixtures/logs/corpus');

export function corpusLog(name: string): string {
  return readFileSync(join(CORPUS_DIR, `${name}.log`), 'utf8');
}

/** pytest's own outcome per node id (from its reports, not from the log): passed, failed, error, skipped, xfailed, xpassed. */
export function corpusTruth(name: string): Record<string, string> {
  return JSON.parse(readFileSync(join(CORPUS_DIR, `${name}.truth.json`), 'utf8')) as Record<string, string>;
}

const PYTEST_SUMMARY_STATUS: Record<string, string | undefined> = {
  passed: 'PASSED',
  failed: 'FAILED',
  error: 'ERROR',
  xfailed: 'XFAIL',
  // Skipped tests appear only in folded `SKIPPED [N] file:line` lines; XPASS is no status the harness knows.
  skipped: undefined,
  xpassed: undefined,
};

/**
 * What the harness's `-rA` summary parsers must read, derived from pytest's truth by the
 * harness's stated rules: the id is cut at its first space; `rename` applies a parser's own
 * id rewrite (pytest-options' path parameters).
 */
export function expectedSummaryMap(
  truth: Record<string, string>,
  rename: (id: string) => string = (id) => id,
): Map<string, string> {
  const expected = new Map<string, string>();
  for (const [nodeid, outcome] of Object.entries(truth)) {
    const status = PYTEST_SUMMARY_STATUS[outcome];
    if (status === undefined) continue;
    const key = rename(nodeid.split(' ')[0]);
    if (expected.has(key))
      throw new Error(`two node ids read as ${key}: the corpus should not need ordering rules here`);
    expected.set(key, status);
  }
  return expected;
}
