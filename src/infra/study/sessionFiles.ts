import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { ParticipantSessionSchema, type ParticipantSession } from '../../protocol/studyRecords';
import { writeFileAtomic } from '../files';
import { dataRoot } from '../run/stateDir';
import { readRecord } from './runRecords';
import * as z from 'zod';

/**
 * Participants' sessions of a study, in the per-user data directory (docs/study.md):
 * `studies/<study>/participants/<id>.json` (progress through the assigned tasks) and
 * `studies/<study>/withdrawn.json` (ids whose data was withdrawn: never exported again, also when
 * a results file holding them is merged later).
 */
export class StudySessions {
  readonly root: string;

  constructor(study: string, root = join(dataRoot(), 'studies', study)) {
    this.root = root;
  }

  /**
   * The sessions of a study file: the researcher's at `studies/<study>/`; a pack's at
   * `studies/<study>/packs/<hash of the pack's study file>/`, so trying a pack on the researcher's
   * machine neither finds the researcher's sessions ("you have done every task") nor adds to them.
   */
  static of(study: string, studyFile: string, pack: boolean): StudySessions {
    const base = join(dataRoot(), 'studies', study);
    if (!pack) return new StudySessions(study, base);
    const key = createHash('sha256').update(resolve(studyFile)).digest('hex').slice(0, 12);
    return new StudySessions(study, join(base, 'packs', key));
  }

  private sessionPath(participant: string): string {
    return join(this.root, 'participants', `${participant}.json`);
  }

  read(participant: string): ParticipantSession | undefined {
    return readRecord(this.sessionPath(participant), ParticipantSessionSchema, 'study session');
  }

  write(session: ParticipantSession): void {
    writeFileAtomic(this.sessionPath(session.participant), JSON.stringify(session, null, 2) + '\n');
  }

  list(): ParticipantSession[] {
    const dir = join(this.root, 'participants');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
      .sort()
      .flatMap((f) => {
        const s = this.read(f.slice(0, -'.json'.length));
        return s ? [s] : [];
      });
  }

  remove(participant: string): void {
    rmSync(this.sessionPath(participant), { force: true });
  }

  withdrawn(): Set<string> {
    return new Set(readRecord(join(this.root, 'withdrawn.json'), z.array(z.string()), 'withdrawal list') ?? []);
  }

  markWithdrawn(participant: string): void {
    const ids = this.withdrawn().add(participant);
    writeFileAtomic(join(this.root, 'withdrawn.json'), JSON.stringify([...ids].sort()) + '\n');
  }
}
