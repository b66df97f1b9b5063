import { DriftLabelRecordSchema, type DriftLabelRecord } from '../../protocol/labels';
import { stripBom } from '../util/bom';
import { UserError } from '../util/errors';

/** One problem of one JSONL line: `file line N: field: message`. */
function problems(
  source: string,
  lineNo: number,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string[] {
  return issues.map(
    (i) => `${source} line ${lineNo}: ${i.path.length > 0 ? i.path.map(String).join('.') : '(record)'}: ${i.message}`,
  );
}

/** Parses one JSONL line into a label record, or returns the problems found (blank lines: nothing). */
export function parseLabelLine(text: string, lineNo: number, source: string): DriftLabelRecord | string[] | undefined {
  if (text.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return [`${source} line ${lineNo}: not JSON (${(e as Error).message})`];
  }
  const r = DriftLabelRecordSchema.safeParse(json);
  return r.success ? r.data : problems(source, lineNo, r.error.issues);
}

/**
 * Collects the records of a labels file. Every bad line is reported (file, line, field) in one
 * UserError, so a person fixes them all at once; nothing is returned from a file with errors.
 */
export class LabelFileReader {
  private readonly records: DriftLabelRecord[] = [];
  private readonly errors: string[] = [];
  private lineNo = 0;

  constructor(readonly source: string) {}

  push(line: string): void {
    this.lineNo++;
    if (this.lineNo === 1) line = stripBom(line);
    const r = parseLabelLine(line, this.lineNo, this.source);
    if (Array.isArray(r)) this.errors.push(...r);
    else if (r) this.records.push(r);
  }

  finish(): DriftLabelRecord[] {
    if (this.errors.length > 0) {
      throw new UserError(
        `${this.source}: ${this.errors.length} invalid label field(s)`,
        'input',
        this.errors.slice(0, 50).concat(this.errors.length > 50 ? [`… and ${this.errors.length - 50} more`] : []),
      );
    }
    return this.records;
  }
}

export function parseLabels(text: string, source: string): DriftLabelRecord[] {
  const reader = new LabelFileReader(source);
  for (const line of text.split('\n')) reader.push(line.replace(/\r$/, ''));
  return reader.finish();
}
