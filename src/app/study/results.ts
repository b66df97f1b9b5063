import * as z from 'zod';
import { describeIssues } from '../../core/formats/issues';
import { UserError } from '../../core/util/errors';
import { StudyRowSchema, type StudyRow } from '../../protocol/studyRecords';
import { readUserFile, writeFileAtomic } from '../../infra/files';
import type { ParticipantSession } from '../../protocol/studyRecords';
import { dirname, join } from 'node:path';
import { participantRows } from './rows';

/**
 * The one file a participant sends back from a pack (docs/study.md "Packs"): their rows, with the
 * patches, and no grading (the pack holds no hidden tests). `study export --results` merges it and
 * `--grade` grades its patches where the hidden tests are.
 */
export const ResultsFileSchema = z.object({
  chainlensStudyResults: z.literal(1),
  study: z.string(),
  participant: z.string(),
  writtenAt: z.string(),
  rows: z.array(StudyRowSchema),
});
export type ResultsFile = z.infer<typeof ResultsFileSchema>;

export function readResultsFile(path: string, study: string): ResultsFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readUserFile(path, 'results file'));
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`results file ${path} is not valid JSON`, 'input', [`${path}: ${(e as Error).message}`]);
  }
  const parsed = ResultsFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new UserError(`results file ${path} is not valid`, 'input', describeIssues(path, parsed.error));
  if (parsed.data.study !== study)
    throw new UserError(`results file ${path} is from the study '${parsed.data.study}', not '${study}'`, 'input', [
      `${path}: $.study: expected '${study}'`,
    ]);
  for (const row of parsed.data.rows)
    if (row.participant !== parsed.data.participant)
      throw new UserError(`results file ${path} mixes participants`, 'input', [
        `${path}: $.rows: a row of '${row.participant}' in the file of '${parsed.data.participant}'`,
      ]);
  return parsed.data;
}

export function writeResultsFile(
  path: string,
  study: string,
  participant: string,
  rows: readonly StudyRow[],
  now = new Date(),
): void {
  const file: ResultsFile = {
    chainlensStudyResults: 1,
    study,
    participant,
    writtenAt: now.toISOString(),
    rows: [...rows],
  };
  writeFileAtomic(path, JSON.stringify(file, null, 2) + '\n');
}

/**
 * In a pack: after a submission, the participant's rows go to `<resultsDir>/<participant>.results.json`
 * beside the study file (the one file they send back). Elsewhere: nothing. Returns the file written.
 */
export async function writePackResults(
  study: { file: string; name: string; resultsDir: string | undefined },
  session: ParticipantSession,
): Promise<string | undefined> {
  if (!study.resultsDir) return undefined;
  const path = join(dirname(study.file), study.resultsDir, `${session.participant}.results.json`);
  writeResultsFile(path, study.name, session.participant, await participantRows(session));
  return path;
}
