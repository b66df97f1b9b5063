// Paths and readers for the trajectory samples: the real, unmodified files in
// test/fixtures/formats (its README says where they come from) and ChainLens's OpenHands fixtures.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseTrajectory } from '../../../src/core/trajectories';
import { FORMATS } from '../../helpers/formats';
import { TrajectoryFileSchema, type Trajectory, type TrajectoryFile } from '../../../src/protocol/trajectory';

export const SHARED = process.env.CHAINLENS_SHARED_FORMATS ?? FORMATS;
export const OWN = resolve(__dirname, '../../fixtures/trajectories');

export const samples = {
  sweV0: join(SHARED, 'sweagent_v0_gpt4__pydicom__pydicom-1458.traj'),
  sweV1: join(SHARED, 'sweagent_v1_function_calling__marshmallow-code__marshmallow-1867.traj'),
  swePreds: join(SHARED, 'sweagent_all_preds__pydicom__pydicom-1458.jsonl'),
  miniLegacy: join(SHARED, 'minisweagent_legacy_list_format.traj.json'),
  miniPreds: join(SHARED, 'minisweagent_preds_example.json'),
  ohV0: join(OWN, 'openhands_v0_output.jsonl'),
  ohV1: join(OWN, 'openhands_v1_events.jsonl'),
  sweDemo: join(OWN, 'sweagent_demonstration_function_calling_simple.traj'),
};

export function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Parses and checks the result against the protocol schema (what the webview will rely on). */
export function parse(path: string, text = read(path)): TrajectoryFile {
  const file = parseTrajectory(path, text);
  TrajectoryFileSchema.parse(file);
  return file;
}

export function only(file: TrajectoryFile): Trajectory {
  if (file.trajectories.length !== 1) throw new Error(`expected one trajectory, got ${file.trajectories.length}`);
  return file.trajectories[0];
}

/** A diff without what git adds and ChainLens cannot know: `index` lines and hunk section names. */
export function comparableDiff(diff: string): string {
  return diff
    .replace(/\r\n/g, '\n')
    .replace(/^\n+/, '')
    .split('\n')
    .filter((l) => !l.startsWith('index '))
    .map((l) => l.replace(/^(@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@).*$/, '$1'))
    .join('\n')
    .trimEnd();
}
