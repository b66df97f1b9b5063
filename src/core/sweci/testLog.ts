// What a SWE-CI test run's log says: the passing and failing tests (the harness's pytest parser,
// `-rA` lines), each failing test's reason and failure section, for the Architect's gap view.
import { parseTestLog } from '../evaluation/grading';
import type { SweciGapEntry } from '../../protocol/sweci';

export interface TestLogOutcome {
  passed: string[];
  failed: string[];
  /** Status per test id as the log reports it (PASSED, FAILED, ERROR, SKIPPED, XFAIL). */
  statuses: Record<string, string>;
}

/** Passing and failing test ids of a pytest `-rA` log, each sorted. */
export function readTestLog(log: string): TestLogOutcome {
  const statuses = parseTestLog(log, 'pytest', 'swebench-v5');
  const passed: string[] = [];
  const failed: string[] = [];
  for (const [id, status] of Object.entries(statuses)) {
    if (status === 'PASSED') passed.push(id);
    else if (status === 'FAILED' || status === 'ERROR') failed.push(id);
  }
  return { passed: passed.sort(), failed: failed.sort(), statuses };
}

const SECTION_RULE = /^=+ (FAILURES|ERRORS) =+$/;
const ANY_RULE = /^=+ .* =+$/;
const HEADLINE = /^_{3,} (.+?) _{3,}$/;

/**
 * pytest's failure sections by headline (`test_x`, `TestC.test_y[1]`, `ERROR at setup of test_x`),
 * from the FAILURES and ERRORS blocks of the log.
 */
export function failureSections(log: string): Map<string, string> {
  const out = new Map<string, string>();
  let inBlock = false;
  let head: string | null = null;
  let body: string[] = [];
  const flush = () => {
    if (head !== null && !out.has(head)) out.set(head, body.join('\n').trim());
    head = null;
    body = [];
  };
  for (const line of log.split('\n')) {
    const trimmed = line.replace(/\r$/, '');
    if (SECTION_RULE.test(trimmed)) {
      flush();
      inBlock = true;
      continue;
    }
    if (ANY_RULE.test(trimmed)) {
      flush();
      inBlock = false;
      continue;
    }
    if (!inBlock) continue;
    const m = HEADLINE.exec(trimmed);
    if (m) {
      flush();
      head = m[1];
    } else if (head !== null) body.push(trimmed);
  }
  flush();
  return out;
}

/** pytest's headline for a node id: the parts after the file, joined with dots. */
export function headlineOf(nodeId: string): string {
  const parts = nodeId.split('::');
  return parts.slice(1).join('.') || nodeId;
}

/** The short reason of a `FAILED id - reason` / `ERROR id - reason` summary line, by id. */
function summaryReasons(log: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of log.split('\n')) {
    const m = /^(FAILED|ERROR) (\S+) - (.*)$/.exec(line.replace(/\r$/, ''));
    if (m && !out.has(m[2])) out.set(m[2], m[3].trim());
  }
  return out;
}

/**
 * The gap as SWE-CI hands it to the Architect: per oracle-passing test that does not pass now, one
 * line saying how it ended (failed / error / not run) and why, plus its failure section when the
 * log has one.
 */
export function gapEntries(gap: readonly string[], log: string | null): SweciGapEntry[] {
  const statuses = log ? parseTestLog(log, 'pytest', 'swebench-v5') : {};
  const sections = log ? failureSections(log) : new Map<string, string>();
  const reasons = log ? summaryReasons(log) : new Map<string, string>();
  return gap.map((test) => {
    const status = statuses[test];
    const head = headlineOf(test);
    const output = sections.get(head) ?? sections.get(`ERROR at setup of ${head}`) ?? null;
    if (status === undefined)
      return {
        test,
        description:
          'This test was not collected or did not run in the current state, so there is no traceback; the oracle passes it.',
        output,
      };
    const reason = reasons.get(test);
    const how = status === 'ERROR' ? 'Test errored' : `Test ${status.toLowerCase()}`;
    return { test, description: `${how}.${reason ? ` Reason: ${reason}` : ''}`, output };
  });
}
