// A SWE-CI split's metadata CSV (docs/sweci.md): header row, then one task per row. Read the way
// Python's csv.DictReader reads it (quoted fields, doubled quotes, CRLF, a byte order mark).
import { SweciMetadataRowSchema, type SweciMetadataRow } from '../../protocol/sweci';
import { stripBom } from '../util/bom';
import { UserError } from '../util/errors';

interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  fields: string[];
}

/** Records of CSV text; a quote left open is an error naming its line. */
export function parseCsv(text: string, file: string): CsvRecord[] {
  const src = stripBom(text);
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let any = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      any = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      any = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      if (any || field !== '') records.push({ line: start, fields: [...fields, field] });
      fields = [];
      field = '';
      any = false;
      line++;
      start = line;
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted) throw new UserError(`${file}:${start}: a quoted field is not closed`, 'input');
  if (any || field !== '') records.push({ line: start, fields: [...fields, field] });
  return records;
}

export interface MetadataRow {
  line: number;
  row: SweciMetadataRow;
}

/**
 * The task rows of a metadata CSV, each checked: a missing column or a bad value is an error
 * naming the file, the line, the task (when its id is readable) and the field. Every problem is
 * listed, nothing is skipped silently.
 */
export function readMetadataCsv(text: string, file: string): MetadataRow[] {
  const records = parseCsv(text, file);
  if (!records.length) throw new UserError(`${file}: the metadata CSV is empty (no header row)`, 'input');
  const header = records[0].fields.map((h) => h.trim());
  const required = Object.keys(SweciMetadataRowSchema.shape);
  const missing = required.filter((k) => !header.includes(k));
  if (missing.length)
    throw new UserError(
      `${file}:1: the header has no ${missing.map((m) => `'${m}'`).join(', ')} column (SWE-CI's metadata names task_id, current_sha, target_sha, test_gap)`,
      'input',
    );
  const rows: MetadataRow[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const rec of records.slice(1)) {
    const raw: Record<string, string> = {};
    header.forEach((h, i) => (raw[h] = (rec.fields[i] ?? '').trim()));
    const task = raw.task_id ? ` (task '${raw.task_id}')` : '';
    const absent = required.filter((k) => rec.fields[header.indexOf(k)] === undefined || raw[k] === '');
    if (absent.length) {
      problems.push(`${file}:${rec.line}${task}: missing ${absent.map((a) => `'${a}'`).join(', ')}`);
      continue;
    }
    const parsed = SweciMetadataRowSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push(`${file}:${rec.line}${task}: '${issue.path.join('.')}' must be ${issue.message}`);
      continue;
    }
    const before = seen.get(raw.task_id);
    if (before !== undefined) {
      problems.push(`${file}:${rec.line}${task}: the task id repeats line ${before}`);
      continue;
    }
    seen.set(raw.task_id, rec.line);
    rows.push({ line: rec.line, row: { ...raw, ...parsed.data } });
  }
  if (problems.length)
    throw new UserError(
      `${file}: ${problems.length} bad metadata row${problems.length > 1 ? 's' : ''}`,
      'input',
      problems,
    );
  return rows;
}
