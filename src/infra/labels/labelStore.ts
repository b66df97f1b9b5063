// Drift labels of one run as JSONL next to the run, in the work tree's state folder (outside the
// work tree, docs/run-state.md): <state folder>/runs/<run>.labels.jsonl. Every labeller of the
// run writes here; records name their labeller, so `labels agree` can pick one side each.
// Adding appends one line (one write of a whole line with O_APPEND, so a crash leaves whole lines);
// editing and removing rewrite the file atomically (src/infra/files.ts).
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DriftLabelRecordSchema, type DriftLabelRecord } from '../../protocol/labels';
import { writeFileAtomic } from '../files';
import { readLabelFile } from './labelFile';

export function labelsFile(stateRoot: string, runId: string): string {
  return join(stateRoot, 'runs', `${runId}.labels.jsonl`);
}

/** Same target, labeller and time: how a record is recognised for editing and removal. */
export function sameRecord(a: DriftLabelRecord, b: DriftLabelRecord): boolean {
  return (
    a.run === b.run &&
    a.step === b.step &&
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
  load(): Promise<DriftLabelRecord[]> {
    return readLabelFile(this.path, { missingIsEmpty: true });
  }

  add(record: DriftLabelRecord): void {
    const valid = DriftLabelRecordSchema.parse(record);
    mkdirSync(dirname(this.path), { recursive: true });
    appendFileSync(this.path, `${JSON.stringify(valid)}\n`);
  }

  /** Replaces `old` by `next` in place (keeps the order of the file). */
  async replace(old: DriftLabelRecord, next: DriftLabelRecord): Promise<void> {
    const valid = DriftLabelRecordSchema.parse(next);
    const records = await this.load();
    const i = records.findIndex((r) => sameRecord(r, old));
    if (i < 0) throw new Error(`${this.path}: the label to edit is no longer there (changed by someone else?)`);
    records[i] = valid;
    this.rewrite(records);
  }

  async remove(old: DriftLabelRecord): Promise<void> {
    const records = await this.load();
    const kept = records.filter((r) => !sameRecord(r, old));
    if (kept.length === records.length) throw new Error(`${this.path}: the label to remove is no longer there`);
    this.rewrite(kept);
  }

  private rewrite(records: readonly DriftLabelRecord[]): void {
    writeFileAtomic(this.path, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  }
}
