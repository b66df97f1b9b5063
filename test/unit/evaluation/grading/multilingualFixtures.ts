// Loads the multilingual log corpus (test/fixtures/logs/multilingual): real logs from
// scripts/make-multilingual-corpus.sh, constructed ones under synthetic/, and truth.json, which
// scripts/harness-truth.py wrote by running the SWE-bench harness's own Python code on them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalType, GradingProfile, LogParserName, Resolution, TestBucket } from '../../../../src/protocol/grading';

export const MULTILINGUAL_DIR = join(__dirname, '../../../fixtures/logs/multilingual');

export interface CorpusCase {
  name: string;
  log: string;
  parsers: LogParserName[];
  instanceId?: string;
  version?: string;
  truncations?: string[];
}

type Pairs = [string, string][];
/** Per scenario: one letter per F2P id and per P2P id (S success, F failure, N neither), and the resolution. */
export type HarnessReport = [string, string, Resolution];
export interface HarnessResult {
  absent?: true;
  parse?: { map?: Pairs; crash?: string };
  eval?: { found?: boolean; map?: Pairs; crash?: string };
  reports?: HarnessReport[];
}

export const MISSING_TEST = 'chainlens-corpus::no-such-test';

/** scripts/harness-truth.py's _scenarios: every status of the log, and a missing id, in each bucket. */
export function scenarios(keys: string[]): [string[], string[], EvalType][] {
  const half = Math.floor(keys.length / 2);
  const lists: [string[], string[]][] = [
    [[...keys, MISSING_TEST], []],
    [[], [...keys, MISSING_TEST]],
    [keys.slice(0, half), keys.slice(half)],
    [[MISSING_TEST], []],
    [[], []],
  ];
  return lists.flatMap(([f2p, p2p]) =>
    (['pass_and_fail', 'fail_only'] as const).map((e): [string[], string[], EvalType] => [f2p, p2p, e]),
  );
}

/** scripts/harness-truth.py's _outcomes. */
export function outcomes(ids: string[], bucket: TestBucket): string {
  const success = new Set(bucket.success);
  const failure = new Set(bucket.failure);
  return ids.map((id) => (success.has(id) ? 'S' : failure.has(id) ? 'F' : 'N')).join('');
}
export interface HarnessTruth {
  harness: Record<GradingProfile, string>;
  results: Record<GradingProfile, Record<string, HarnessResult>>;
}

export function corpusCases(): CorpusCase[] {
  return JSON.parse(readFileSync(join(MULTILINGUAL_DIR, 'cases.json'), 'utf8')) as CorpusCase[];
}

export function harnessTruth(): HarnessTruth {
  return JSON.parse(readFileSync(join(MULTILINGUAL_DIR, 'truth.json'), 'utf8')) as HarnessTruth;
}

/** The log as the harness reads it: Python's text mode turns \r\n and a lone \r into \n. */
export function readCaseLog(c: CorpusCase): string {
  return readFileSync(join(MULTILINGUAL_DIR, c.log), 'utf8').replace(/\r\n?/g, '\n');
}

/** Every log a case stands for: the whole log, then each cut-off copy (named `case@cut`). */
export function caseVariants(c: CorpusCase): [string, string][] {
  const full = readCaseLog(c);
  return [
    [c.name, full],
    ...(c.truncations ?? []).map((cut): [string, string] => [`${c.name}@${cut}`, truncate(full, cut)]),
  ];
}

/** scripts/harness-truth.py's truncate: `frac:F` keeps floor(F * lines) lines, `+half` half the next one. */
export function truncate(text: string, cut: string): string {
  const spec = cut.slice(cut.indexOf(':') + 1);
  const half = spec.endsWith('+half');
  const lines = text.split('\n');
  const k = Math.floor(Number(half ? spec.slice(0, -'+half'.length) : spec) * lines.length);
  let kept = lines.slice(0, k).join('\n');
  if (half && k < lines.length) {
    const next = [...lines[k]];
    kept += '\n' + next.slice(0, Math.floor(next.length / 2)).join('');
  }
  return kept;
}
