// What the batch kill tests compare: a run directory's records, byte for byte, and the parts of
// them that must not depend on the engine or on being interrupted (docs/reference/batch.md, "Resuming").
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every record file of a run directory by its path under records/ (temporary files excluded). */
export function batchRecords(runDir: string): Map<string, string> {
  const dir = join(runDir, 'records');
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    if (rel.endsWith('.json') && !rel.split('/').pop()!.startsWith('.'))
      out.set(rel, readFileSync(join(dir, rel), 'utf8'));
  return out;
}

/** The verdict and the graded test lists of each record. */
export function batchVerdicts(runDir: string): Record<string, unknown> {
  return Object.fromEntries(
    [...batchRecords(runDir)].map(([rel, text]) => {
      const r = JSON.parse(text) as Record<string, unknown>;
      return [rel, [r.status, r.resolved, r.error_kind, r.infra_failure, r.tests_status]];
    }),
  );
}

/** The error of each record that has one, by its path: what a failed batch's assertion shows. */
export function batchErrors(runDir: string): string {
  return [...batchRecords(runDir)]
    .map(([rel, text]) => [rel, (JSON.parse(text) as { error?: string }).error] as const)
    .filter(([, error]) => error)
    .map(([rel, error]) => `${rel}: ${error}`)
    .join('\n');
}

/**
 * Checks that every record seen before is still there byte for byte (a recorded step never runs
 * again), then adds the new ones to `seen`. Returns the first rewritten or lost record, if any.
 */
export function keepsEarlierRecords(runDir: string, seen: Map<string, string>): string | undefined {
  const now = batchRecords(runDir);
  for (const [rel, text] of seen) if (now.get(rel) !== text) return rel;
  for (const [rel, text] of now) seen.set(rel, text);
  return undefined;
}

/** A small seeded generator (mulberry32): the kill moments differ per seed and can be replayed. */
export { seededRandom } from '../../src/core/study/random';

/** The seed of a kill test: CHAINLENS_TEST_SEED replays a failure; otherwise a new one each run. */
export const testSeed = (): number => Number(process.env.CHAINLENS_TEST_SEED ?? Date.now() % 100000);
