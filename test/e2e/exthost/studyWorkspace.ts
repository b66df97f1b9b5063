// A study folder as a researcher hands it to a participant: the demo chain's two-step task, the
// demo agent's predictions, the repository, and a study file with one AH participant and a short
// idle gap (so a test can wait past it).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../harness';

export interface StudyWorkspace {
  dir: string;
  studyFile: string;
  /** Where the participant's task is checked out (the session's default layout). */
  workTree: string;
  idleGapSeconds: number;
  remove(): void;
}

/**
 * `name` names the study's records in the data directory: two workspaces sharing one data
 * directory need two names, or the second finds its participant's task already done.
 */
export function makeStudyWorkspace(idleGapSeconds = 3, name = 'e2e-study'): StudyWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-study-ws-'));
  execFileSync('bash', [join(repoRoot, 'scripts', 'build-demo-repo.sh'), join(dir, 'repo')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  copyFileSync(join(repoRoot, 'demo', 'chain.jsonl'), join(dir, 'chain.jsonl'));
  copyFileSync(join(repoRoot, 'demo', 'predictions-undershoot.jsonl'), join(dir, 'predictions.jsonl'));
  const studyFile = join(dir, 'study.json');
  writeFileSync(
    studyFile,
    JSON.stringify(
      {
        chainlensStudy: 1,
        name,
        tasks: [
          {
            id: 'invoicekit',
            chain: 'chain.jsonl',
            chainId: 'chainlens-demo_invoicekit_20240312_two_step',
            repo: 'repo',
            predictions: 'predictions.jsonl',
          },
        ],
        conditions: [
          { name: 'AH', authors: ['recorded', 'human'] },
          { name: 'HH', authors: ['human', 'human'] },
        ],
        participants: ['p01'],
        assignment: { kind: 'explicit', sessions: { p01: [{ task: 'invoicekit', condition: 'AH' }] } },
        feedback: 'none',
        revealAfterSubmission: true,
        idleGapSeconds,
        consent: 'Your code and time on task are recorded under a pseudonymous id.',
      },
      null,
      2,
    ),
  );
  return {
    dir,
    studyFile,
    workTree: join(dir, 'sessions', 'p01', 'invoicekit'),
    idleGapSeconds,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
