// Where an agent's command runs, and how it is stopped (docs/reference/agents.md, "Isolation").
// One small module with one entry point, runAgent: the chain loop (src/app/agent/agentStep.ts)
// and any other loop that runs a researcher's command on a work tree (SWE-CI's roles) place their
// command through it.
//
// - container (default): a fresh container of the given image, with exactly four things mounted:
//   the work tree, the memory directory, the problem statement (read-only) and the folder of the
//   trajectory path. No data directory, no mirror cache, no Docker socket; the engine's default
//   network, as the evaluation containers have. Owned and labelled like every ChainLens container
//   (infra/docker/managed.ts), so a killed ChainLens's agent container is swept by the next one.
// - host: `sh -c` as the user, in the work tree, in its own process group; it can read whatever
//   the user can.
import type Docker from 'dockerode';
import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { connectDocker, createManagedContainer, removeManagedContainer } from '../docker';
import { onShutdown } from '../process/shutdown';
import { processGone, processStartToken } from '../process/processIdentity';

export type AgentPlacement = { readonly kind: 'host' } | { readonly kind: 'container'; readonly image: string };

export interface AgentInvocation {
  /** Run with `sh -c`. */
  readonly command: string;
  /** Host paths: the agent's working directory and its three files. */
  readonly workTree: string;
  readonly problemFile: string;
  readonly memoryDir: string;
  readonly trajectoryPath: string;
  /** Further environment variables (the CHAINLENS_* ids of the step). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutS: number;
  /** Where the command's stdout and stderr go (outside the work tree). */
  readonly logPath: string;
  /** Host placement: where the process group is noted, so a resumed run stops one a kill left. */
  readonly pidFile: string;
  /** Labels the container with this run (infra/docker/owner.ts). */
  readonly runId: string;
  readonly signal?: AbortSignal;
}

export interface AgentRunOutcome {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly wallTimeS: number;
  /** Stopped by the caller's signal (Ctrl-C, a shutdown): not an outcome of the agent. */
  readonly cancelled: boolean;
}

/** Where the four mounts appear inside an agent container. */
export const AGENT_MOUNTS = {
  workTree: '/chainlens/worktree',
  problemFile: '/chainlens/problem_statement.md',
  memoryDir: '/chainlens/memory',
  trajectoryDir: '/chainlens/trajectory',
} as const;

export function runAgent(placement: AgentPlacement, inv: AgentInvocation): Promise<AgentRunOutcome> {
  return placement.kind === 'host' ? runOnHost(inv) : runInContainer(placement.image, inv);
}

/** Process groups of host agents this process started and has not seen end. */
const liveGroups = new Set<number>();
let shutdownHooked = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/**
 * A host agent's process group that a killed ChainLens left running (its pid file is there and
 * the process is the one noted): killed, so it cannot write into the work tree being reset.
 */
export function stopLeftoverAgent(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  try {
    const { pid, start } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; start: string | null };
    if (Number.isInteger(pid) && pid > 0 && !processGone(pid, start)) killGroup(pid);
  } catch {
    // a torn note: nothing can be known about it
  }
  rmSync(pidFile, { force: true });
}

function runOnHost(inv: AgentInvocation): Promise<AgentRunOutcome> {
  if (!shutdownHooked) {
    shutdownHooked = true;
    // SIGINT/SIGTERM/SIGHUP to ChainLens: its agents go with it (SIGKILL: stopLeftoverAgent).
    onShutdown(async () => {
      for (const pid of liveGroups) killGroup(pid);
    });
  }
  const started = Date.now();
  const out = openSync(inv.logPath, 'w');
  const env = {
    ...process.env,
    ...inv.env,
    CHAINLENS_PROBLEM_STATEMENT: inv.problemFile,
    CHAINLENS_MEMORY_DIR: inv.memoryDir,
    CHAINLENS_TRAJECTORY: inv.trajectoryPath,
  };
  return new Promise((resolve, reject) => {
    let timedOut = false;
    let cancelled = false;
    const child = spawn('sh', ['-c', inv.command], {
      cwd: inv.workTree,
      env,
      // Its own process group: a timeout kills the command and everything it started.
      detached: true,
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    const pid = child.pid;
    if (pid === undefined) {
      child.once('error', reject);
      return;
    }
    liveGroups.add(pid);
    writeFileSync(inv.pidFile, JSON.stringify({ pid, start: processStartToken(pid) }));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid);
    }, inv.timeoutS * 1000);
    const onAbort = () => {
      cancelled = true;
      killGroup(pid);
    };
    inv.signal?.addEventListener('abort', onAbort, { once: true });
    if (inv.signal?.aborted) onAbort();
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      inv.signal?.removeEventListener('abort', onAbort);
      // The step ends when the command exits: what it left running in the background ends too.
      killGroup(pid);
      liveGroups.delete(pid);
      rmSync(inv.pidFile, { force: true });
      resolve({
        exitCode: code,
        signal: signal ?? null,
        timedOut,
        wallTimeS: round((Date.now() - started) / 1000),
        cancelled,
      });
    });
  });
}

/** The user the container runs as: this process's own, so what the agent writes stays the user's. */
function containerUser(): string {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  return `${uid}:${gid}`;
}

async function runInContainer(image: string, inv: AgentInvocation): Promise<AgentRunOutcome> {
  const docker: Docker = await connectDocker();
  const trajectoryInside = `${AGENT_MOUNTS.trajectoryDir}/${basename(inv.trajectoryPath)}`;
  const container = await createManagedContainer(docker, inv.runId, {
    Image: image,
    Entrypoint: [''],
    Cmd: ['sh', '-c', inv.command],
    WorkingDir: AGENT_MOUNTS.workTree,
    User: containerUser(),
    Env: Object.entries({
      ...inv.env,
      HOME: '/tmp',
      CHAINLENS_PROBLEM_STATEMENT: AGENT_MOUNTS.problemFile,
      CHAINLENS_MEMORY_DIR: AGENT_MOUNTS.memoryDir,
      CHAINLENS_TRAJECTORY: trajectoryInside,
    }).map(([k, v]) => `${k}=${v}`),
    Tty: false,
    AttachStdout: true,
    AttachStderr: true,
    HostConfig: {
      // Exactly these four: the data directory, the mirror cache and the engine's socket are not here.
      Binds: [
        `${inv.workTree}:${AGENT_MOUNTS.workTree}`,
        `${inv.problemFile}:${AGENT_MOUNTS.problemFile}:ro`,
        `${inv.memoryDir}:${AGENT_MOUNTS.memoryDir}`,
        `${dirname(inv.trajectoryPath)}:${AGENT_MOUNTS.trajectoryDir}`,
      ],
    },
  });
  const started = Date.now();
  let timedOut = false;
  let cancelled = false;
  const log = createWriteStream(inv.logPath);
  const stop = () => container.kill({ signal: 'SIGKILL' }).catch(() => undefined);
  const timer = setTimeout(() => {
    timedOut = true;
    void stop();
  }, inv.timeoutS * 1000);
  const onAbort = () => {
    cancelled = true;
    void stop();
  };
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    docker.modem.demuxStream(stream, log, log);
    const ended = new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
    });
    inv.signal?.addEventListener('abort', onAbort, { once: true });
    if (inv.signal?.aborted) onAbort();
    await container.start();
    const waited = (await container.wait()) as { StatusCode?: number };
    await Promise.race([ended, new Promise((r) => setTimeout(r, 2000).unref())]);
    const code = typeof waited.StatusCode === 'number' ? waited.StatusCode : null;
    return {
      exitCode: timedOut || cancelled ? null : code,
      signal: timedOut || cancelled ? 'SIGKILL' : null,
      timedOut,
      wallTimeS: round((Date.now() - started) / 1000),
      cancelled,
    };
  } finally {
    clearTimeout(timer);
    inv.signal?.removeEventListener('abort', onAbort);
    await new Promise<void>((r) => log.end(r));
    await removeManagedContainer(container);
  }
}

function round(s: number): number {
  return Math.round(s * 100) / 100;
}
