// Where an attached agent's settings and recordings live: beside the run's state, under
// `<state folder>/runs/<run>/agent/` (outside the work tree, so never in a step's diff, and never
// where the agent itself could read or rewrite it; docs/run-state.md).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRecordSchema, AgentSettingsSchema, type AgentRecord, type AgentSettings } from '../../protocol/agent';
import { recordToMiniSweAgent } from '../../core/agent/recorder';
import { UserError } from '../../core/util/errors';
import { writeFileAtomic } from '../files';
import { readRecordJournal, renderTrajectory, writeRecordJournal } from './recordJournal';

export function agentDir(storeRoot: string, runId: string): string {
  return join(storeRoot, 'runs', runId, 'agent');
}

/** `step-<k>.traj.json`: a mini-swe-agent 1.1 document carrying the full record in info.chainlens. */
export function trajectoryPath(storeRoot: string, runId: string, step: number): string {
  return join(agentDir(storeRoot, runId), `step-${step}.traj.json`);
}

export const DEFAULT_AGENT_SETTINGS: AgentSettings = { feedback: 'none' };

export function loadAgentSettings(storeRoot: string, runId: string): AgentSettings {
  const file = join(agentDir(storeRoot, runId), 'settings.json');
  if (!existsSync(file)) return DEFAULT_AGENT_SETTINGS;
  const parsed = AgentSettingsSchema.safeParse(readJson(file));
  if (!parsed.success)
    throw new UserError(
      `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '$'}: ${i.message}`).join('; ')}`,
      'state',
    );
  return parsed.data;
}

export function saveAgentSettings(storeRoot: string, runId: string, settings: AgentSettings): void {
  writeFileAtomic(join(agentDir(storeRoot, runId), 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
}

/** `step-<k>.record.jsonl`: the record as appended lines (recordJournal.ts); the trajectory is rendered from it. */
export function recordJournalPath(storeRoot: string, runId: string, step: number): string {
  return join(agentDir(storeRoot, runId), `step-${step}.record.jsonl`);
}

export function loadAgentRecord(storeRoot: string, runId: string, step: number): AgentRecord | null {
  const journaled = readRecordJournal(recordJournalPath(storeRoot, runId, step));
  if (journaled) return journaled;
  // Recorded by an earlier ChainLens: the trajectory document was the record.
  const file = trajectoryPath(storeRoot, runId, step);
  if (!existsSync(file)) return null;
  const doc = readJson(file) as { info?: { chainlens?: unknown } };
  const parsed = AgentRecordSchema.safeParse(doc?.info?.chainlens);
  if (!parsed.success)
    throw new UserError(
      `${file}: $.info.chainlens is not a ChainLens agent record (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`,
      'state',
    );
  return parsed.data;
}

/**
 * Saves the record: its new events appended to the record journal, and the trajectory rendered
 * from it (at once when the step has ended, else coalesced with the calls that follow).
 */
export function saveAgentRecord(storeRoot: string, record: AgentRecord, now: Date): string {
  writeRecordJournal(recordJournalPath(storeRoot, record.runId, record.step), record);
  const file = trajectoryPath(storeRoot, record.runId, record.step);
  renderTrajectory(
    file,
    () => JSON.stringify(recordToMiniSweAgent(record, now), null, 1) + '\n',
    record.exitStatus !== 'working',
  );
  return file;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UserError(`${file} is not valid JSON: ${(e as Error).message}`, 'state');
  }
}
