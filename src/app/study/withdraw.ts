import { existsSync, rmSync } from 'node:fs';
import { UserError } from '../../core/util/errors';
import { openWorkspace } from '../../infra/run/workspace';
import { StudySessions } from '../../infra/study/sessionFiles';
import type { LoadedStudy } from './loadStudy';

/**
 * Withdraws a participant (docs/study.md "Withdrawal"): their work trees (their code) and the runs'
 * state folders (time records, evaluations) are deleted, then their session, and their id is
 * listed as withdrawn so no later export includes them, not even from a results file sent before.
 * Returns what was deleted.
 */
export async function withdrawParticipant(study: LoadedStudy, participant: string): Promise<string[]> {
  if (!study.study.participants.includes(participant))
    throw new UserError(`'${participant}' is not a participant of the study '${study.study.name}'`, 'usage');
  const sessions = StudySessions.of(study.study.name, study.file, study.study.pack !== undefined);
  const session = sessions.read(participant);
  const deleted: string[] = [];
  for (const entry of session?.tasks ?? []) {
    if (!existsSync(entry.workTree)) continue;
    try {
      const ws = await openWorkspace(entry.workTree);
      if (ws.store.exists) {
        rmSync(ws.store.root, { recursive: true, force: true });
        deleted.push(ws.store.root);
      }
    } catch {
      // not a work tree (any more): only the folder goes
    }
    rmSync(entry.workTree, { recursive: true, force: true });
    deleted.push(entry.workTree);
  }
  // Marked first, removed second: a kill in between leaves the id excluded, never a half-withdrawal that exports.
  sessions.markWithdrawn(participant);
  sessions.remove(participant);
  return deleted;
}
