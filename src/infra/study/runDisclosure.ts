import { disclosureFor, type Disclosure, type StudyRules } from '../../core/study/disclosure';
import type { RunState } from '../../protocol/run';
import type { StudyRun } from '../../protocol/studyRecords';
import { StudyRunRecords } from './runRecords';

/** A study record that cannot be read: as blind as a study run can be (fail closed). */
const UNREADABLE: StudyRules = { study: '(unreadable study record)', feedback: 'none', revealAfterSubmission: false };

/**
 * The disclosure policy (src/core/study/disclosure.ts) for a run read from its state folder: the
 * one answer the headless exits (the MCP server, agent tools, CLI) ask, as the window's gate does.
 */
export function runDisclosure(
  stateRoot: string,
  state: RunState,
): { disclosure: Disclosure; record: StudyRun | undefined } {
  let record: StudyRun | undefined;
  let rules: StudyRules | undefined;
  try {
    record = new StudyRunRecords(stateRoot, state.runId).readRun();
    rules = record;
  } catch {
    rules = UNREADABLE;
  }
  return { disclosure: disclosureFor(rules, state), record };
}
