// The files of one agent step, all outside the work tree (docs/reference/agents.md): the problem
// statement, the trajectory path, the log, the memory directory, and for seq+mem the memory as it
// was when each step started, so a step cut short by a kill starts again from exactly that.
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files';
import { stopLeftoverAgent } from './agentRunner';

export interface AgentStepPaths {
  readonly dir: string;
  readonly problemFile: string;
  readonly trajectoryPath: string;
  readonly logPath: string;
  readonly pidFile: string;
  readonly memoryDir: string;
}

/**
 * Lays out step `order`'s folder under `laneDir` afresh (a step run again starts from nothing)
 * and writes its problem statement. `sharedMemory`: the memory of seq+mem, restored to what it
 * was at the step's start; otherwise the step gets a new, empty memory directory of its own.
 */
export function prepareAgentStep(
  laneDir: string,
  order: number,
  instanceId: string,
  problemStatement: string,
  sharedMemory: boolean,
): AgentStepPaths {
  const dir = join(laneDir, `step-${order}`);
  const pidFile = agentPidFile(laneDir, order);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'trajectory'), { recursive: true });
  const problemFile = join(dir, 'problem_statement.md');
  writeFileAtomic(problemFile, problemStatement);
  let memoryDir: string;
  if (sharedMemory) {
    memoryDir = join(laneDir, 'memory');
    restoreOrSnapshotMemory(laneDir, memoryDir, order);
  } else {
    memoryDir = join(dir, 'memory');
    mkdirSync(memoryDir);
  }
  return {
    dir,
    problemFile,
    trajectoryPath: join(dir, 'trajectory', `${fileSafe(instanceId)}.traj.json`),
    logPath: join(dir, 'agent.log'),
    pidFile,
    memoryDir,
  };
}

/** Where a host agent's process group of step `order` is noted while it runs. */
export function agentPidFile(laneDir: string, order: number): string {
  return join(laneDir, `step-${order}.agent-pid`);
}

/**
 * The memory at step `order`'s start: kept as `memory-at-step-<order>` the first time the step
 * starts; a step started again (after a kill) gets that copy back, whatever its first attempt
 * wrote meanwhile.
 */
function restoreOrSnapshotMemory(laneDir: string, memoryDir: string, order: number): void {
  const snapshot = join(laneDir, `memory-at-step-${order}`);
  if (existsSync(snapshot)) {
    rmSync(memoryDir, { recursive: true, force: true });
    cpSync(snapshot, memoryDir, { recursive: true });
    return;
  }
  mkdirSync(memoryDir, { recursive: true });
  // Copied beside, then renamed: a kill during the copy leaves no snapshot that looks whole.
  const partial = `${snapshot}.partial`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(memoryDir, partial, { recursive: true });
  renameSync(partial, snapshot);
}

function fileSafe(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_') || 'step';
}

/** Every host agent noted under `root` (a killed process's, still running) is stopped. */
export function stopLeftoverAgentsUnder(root: string): void {
  if (!existsSync(root)) return;
  for (const rel of readdirSync(root, { recursive: true, encoding: 'utf8' }))
    if (rel.endsWith('.agent-pid')) stopLeftoverAgent(join(root, rel));
}
