// Drift labels of one run as JSONL next to the run, in the work tree's state folder (outside the
// work tree, docs/run-state.md): <state folder>/runs/<run>.labels.jsonl.
// Adding appends one line (one write of a whole line with O_APPEND, so a crash leaves whole lines);
// editing and removing rewrite the file through a temporary sibling and a rename.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseLabels } from '../../core/labels/parse';
import { DriftLabelRecordSchema, type DriftLabelRecord } from '../../protocol/labels';

export function labelsFile(stateRoot: string, runId: string): string {
  return join(stateRoot, 'runs', `${runId}.labels.jsonl`);
}

/** Same target and time: how a record is recognised for editing and removal. */
export function sameRecord(a: DriftLabelRecord, b: DriftLabelRecord): boolean {
  return (
    a.instance === b.instance &&
    a.file === b.file &&
    a.symbol === b.symbol &&
    a.time === b.time &&
    a.labeller === b.labeller &&
    a.range.startLine === b.range.startLine
  );
}

export class LabelStore {
  constructor(readonly path: string) {}

  /** Every record; a bad line is reported with file, line and field (nothing is dropped silently). */
  load(): DriftLabelRecord[] {
    if (!existsSync(this.path)) return [];
    return parseLabels(readFileSync(this.path, 'utf8'), this.path);
  }

  add(record: DriftLabelRecord): void {
    const valid = DriftLabelRecordSchema.parse(record);
    mkdirSync(dirname(this.path), { recursive: true });
    appendFileSync(this.path, `${JSON.stringify(valid)}\n`);
  }

  /** Replaces `old` by `next` in place (keeps the order of the file). */
  replace(old: DriftLabelRecord, next: DriftLabelRecord): void {
    const valid = DriftLabelRecordSchema.parse(next);
    const records = this.load();
    const i = records.findIndex((r) => sameRecord(r, old));
    if (i < 0) throw new Error(`${this.path}: the label to edit is no longer there (changed by someone else?)`);
    records[i] = valid;
    this.rewrite(records);
  }

  remove(old: DriftLabelRecord): void {
    const records = this.load();
    const kept = records.filter((r) => !sameRecord(r, old));
    if (kept.length === records.length) throw new Error(`${this.path}: the label to remove is no longer there`);
    this.rewrite(kept);
  }

  private rewrite(records: readonly DriftLabelRecord[]): void {
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    renameSync(tmp, this.path);
  }
}
