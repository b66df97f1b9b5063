import { join } from 'node:path';
import { toCsv } from '../../core/study/csv';
import { hunkScope } from '../../core/study/hunkScope';
import { StudyRowSchema, type StudyRow } from '../../protocol/studyRecords';
import { writeFileAtomic } from '../../infra/files';
import { StudySessions } from '../../infra/study/sessionFiles';
import type { LoadedStudy } from './loadStudy';
import { participantRows } from './rows';
import { readResultsFile } from './results';

export const ROW_COLUMNS = Object.keys(StudyRowSchema.shape) as (keyof StudyRow & string)[];

export interface ExportSummary {
  readonly rows: StudyRow[];
  readonly participants: number;
  readonly jsonl: string;
  readonly csv: string;
  /** Participants skipped because they withdrew (their results files included). */
  readonly withdrawn: number;
}

/**
 * `study export`: every participant's rows on this machine, plus the rows of results files sent
 * back from packs, minus withdrawn participants; written as rows.jsonl and rows.csv in `outDir`
 * (each atomically). A participant in a results file who also ran here keeps this machine's rows.
 */
export async function exportStudy(
  study: LoadedStudy,
  outDir: string,
  resultsFiles: readonly string[] = [],
): Promise<ExportSummary> {
  const { rows, participants, withdrawn } = await collectRows(study, resultsFiles);
  const jsonl = join(outDir, 'rows.jsonl');
  const csv = join(outDir, 'rows.csv');
  writeFileAtomic(jsonl, rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''), { shared: true });
  writeFileAtomic(csv, toCsv(ROW_COLUMNS, rows), { shared: true });
  return { rows, participants, jsonl, csv, withdrawn };
}

/**
 * A pack's row measured again against this machine's gold: the pack's chain holds no gold, so
 * the participant's machine could not measure overshoot/undershoot (it leaves them null).
 */
function rescoped(study: LoadedStudy, row: StudyRow): StudyRow {
  const gold = study.tasks.get(row.task)?.chain.steps.find((s) => s.order === row.step)?.goldPatch;
  const scope = row.patch !== null && gold ? hunkScope(row.patch, gold) : null;
  return { ...row, overshootLines: scope?.overshootLines ?? null, undershootLines: scope?.undershootLines ?? null };
}

/** The rows `study export` writes, without writing them (the report reads them directly). */
export async function collectRows(
  study: LoadedStudy,
  resultsFiles: readonly string[] = [],
): Promise<{ rows: StudyRow[]; participants: number; withdrawn: number }> {
  const sessions = StudySessions.of(study.study.name, study.file, study.study.pack !== undefined);
  const withdrawn = sessions.withdrawn();
  const rows: StudyRow[] = [];
  const local = new Set<string>();
  let skipped = 0;
  for (const session of sessions.list()) {
    if (withdrawn.has(session.participant)) continue;
    local.add(session.participant);
    rows.push(...(await participantRows(session)));
  }
  for (const file of resultsFiles) {
    const results = readResultsFile(file, study.study.name);
    if (withdrawn.has(results.participant)) {
      skipped++;
      continue;
    }
    if (local.has(results.participant)) continue;
    local.add(results.participant);
    rows.push(...results.rows.map((r) => rescoped(study, r)));
  }
  rows.sort((a, b) => a.participant.localeCompare(b.participant) || a.task.localeCompare(b.task) || a.step - b.step);
  return { rows, participants: local.size, withdrawn: skipped + withdrawn.size };
}
