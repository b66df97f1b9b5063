// One graded step as one Swarm job service (docs/scaling.md, "Docker Swarm"): the eval bundle's
// files go in as Docker configs mounted at their paths, the service runs the bundle's command
// once (replicated job, one completion, never restarted) on whichever node Swarm picks, and once
// its task has ended the log is read back from the service's logs and the exit code from the
// task's status. The service and its configs are removed whatever happens; they carry the same
// owner labels as containers (owner.ts), so a killed process's leftovers are swept (sweep.ts).
import type Docker from 'dockerode';
import { performance } from 'node:perf_hooks';
import type { EvalBundle } from '../../../core/evaluation/script';
import { UserError } from '../../../core/util/errors';
import type { LogSink } from '../logSink';
import { createManagedSwarmObject, removeManagedSwarmObject } from '../managed';
import { managedLabels } from '../owner';
import { dockerMessage, type ContainerRun, type RunControl } from '../stepRun';
import { demuxFrames } from './logFrames';

/** Docker refuses a config larger than this (the engine's limit). */
export const CONFIG_MAX_BYTES = 500 * 1024;
/** How often the task's state is asked for while it runs: a step takes seconds to minutes. */
const POLL_MS = 250;
/** Task states after which nothing more happens (api/types/swarm/task.go). */
const ENDED = new Set(['complete', 'failed', 'shutdown', 'rejected', 'orphaned', 'remove']);

export interface JobServiceOptions {
  readonly image: string;
  readonly bundle: EvalBundle;
  readonly runId: string;
  readonly memoryLimitBytes?: number;
}

interface TaskStatus {
  readonly State?: string;
  readonly Err?: string;
  readonly ContainerStatus?: { ExitCode?: number; ContainerID?: string };
}

function objectName(runId: string, random: string, suffix = ''): string {
  const safe = runId.replace(/[^a-zA-Z0-9-]/g, '-').slice(0, 30);
  return `chainlens-${safe}-${random}${suffix}`.replace(/--+/g, '-');
}

/** Waits `ms`, or less when the signal fires. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Runs the bundle as one job service and returns how its task ended; its log goes to `sink`. */
export async function runJobService(
  docker: Docker,
  o: JobServiceOptions,
  sink: LogSink,
  control: RunControl,
): Promise<ContainerRun> {
  const random = Math.random().toString(36).slice(2, 10);
  const labels = managedLabels(o.runId);
  const configs: { id: string; name: string; path: string; mode: number }[] = [];
  let serviceId: string | undefined;
  try {
    for (const file of o.bundle.files)
      if (Buffer.byteLength(file.content) > CONFIG_MAX_BYTES)
        throw new UserError(
          `the evaluation's ${file.path} is ${Math.ceil(Buffer.byteLength(file.content) / 1024)} KB, and a Docker config (how the swarm engine ships it) holds at most ${CONFIG_MAX_BYTES / 1024} KB; evaluate this step with the local engine`,
          'environment',
        );
    // All at once: one after the other, each creation waits for the managers' consensus.
    const created = await Promise.allSettled(
      o.bundle.files.map(async (file, i) => {
        const name = objectName(o.runId, random, `-${i}`);
        const made = await createManagedSwarmObject(
          'config',
          () =>
            docker.createConfig({
              Name: name,
              Labels: labels,
              Data: Buffer.from(file.content).toString('base64'),
            }) as Promise<{ id: string }>,
          (id) => docker.getConfig(id).remove(),
        );
        configs.push({ id: made.id, name, path: file.path, mode: file.mode });
      }),
    );
    const failed = created.find((r) => r.status === 'rejected');
    if (failed)
      throw new UserError(
        `Swarm did not take the evaluation's files as configs: ${dockerMessage(failed.reason)}`,
        'environment',
      );
    if (control.signal?.aborted) return cancelled(control);
    const service = await createManagedSwarmObject(
      'service',
      () =>
        docker.createService({
          Name: objectName(o.runId, random),
          Labels: labels,
          TaskTemplate: {
            ContainerSpec: {
              Image: o.image,
              // In a service, Command replaces the image's entrypoint, as the harness's exec does.
              Command: o.bundle.command,
              // On the task's container too, so `label=chainlens.managed` finds it like a local run's.
              Labels: labels,
              User: '0:0',
              Dir: '/',
              Configs: configs.map((c) => ({
                File: { Name: c.path, UID: '0', GID: '0', Mode: c.mode },
                ConfigID: c.id,
                ConfigName: c.name,
              })),
            },
            RestartPolicy: { Condition: 'none', MaxAttempts: 0 },
            ...(o.memoryLimitBytes ? { Resources: { Limits: { MemoryBytes: o.memoryLimitBytes } } } : {}),
          },
          Mode: { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } },
        } as Docker.CreateServiceOptions) as Promise<Docker.Service>,
      (id) => docker.getService(id).remove(),
    );
    serviceId = service.id;
    const status = await waitForTask(docker, service.id, control);
    if (control.cancelled) return cancelled(control);
    await readLogs(docker.getService(service.id), sink);
    if (control.timedOut) return { statusCode: 137, oomKilled: false };
    if (status.State === 'rejected' || (status.ContainerStatus?.ExitCode === undefined && status.State !== 'complete'))
      throw new UserError(
        `Swarm could not run the evaluation's task (${status.State}: ${status.Err ?? 'no reason given'})`,
        'environment',
      );
    const statusCode = status.ContainerStatus?.ExitCode ?? 0;
    return { statusCode, oomKilled: statusCode === 137 && (await oomKilled(docker, status)) };
  } finally {
    // A config is in use until its service is gone.
    if (serviceId) await removeManagedSwarmObject('service', serviceId);
    await Promise.all(configs.map((c) => removeManagedSwarmObject('config', c.id)));
  }
}

function cancelled(control: RunControl): ContainerRun {
  control.cancelled = true;
  return { statusCode: 130, oomKilled: false };
}

/** Polls the service's task until it has ended, the deadline passed or the signal fired. */
async function waitForTask(docker: Docker, serviceId: string, control: RunControl): Promise<TaskStatus> {
  let last: TaskStatus = {};
  for (;;) {
    if (control.signal?.aborted) {
      control.cancelled = true;
      return last;
    }
    if (performance.now() >= control.deadline) {
      control.timedOut = true;
      return last;
    }
    let tasks: { Status?: TaskStatus }[];
    try {
      tasks = (await docker.listTasks({ filters: { service: [serviceId] } })) as { Status?: TaskStatus }[];
    } catch (e) {
      throw new UserError(`Swarm did not report the evaluation's task: ${dockerMessage(e)}`, 'environment');
    }
    const task = tasks[0];
    if (task?.Status) {
      last = task.Status;
      if (ENDED.has(task.Status.State ?? '')) return last;
    }
    await pause(Math.min(POLL_MS, Math.max(0, control.deadline - performance.now())), control.signal);
  }
}

/** The service's whole log (stdout and stderr as the engine interleaved them) into the sink. */
async function readLogs(service: Docker.Service, sink: LogSink): Promise<void> {
  let body: unknown;
  try {
    body = await service.logs({ stdout: true, stderr: true, follow: false, timestamps: false });
  } catch (e) {
    throw new UserError(`Swarm did not return the evaluation's log: ${dockerMessage(e)}`, 'environment');
  }
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : '', 'binary');
  for (const frame of demuxFrames(bytes)) sink.write(frame);
}

/** Whether the task's container was killed for memory; only answerable when it ran on this node. */
async function oomKilled(docker: Docker, status: TaskStatus): Promise<boolean> {
  const id = status.ContainerStatus?.ContainerID;
  if (!id) return false;
  try {
    return (await docker.getContainer(id).inspect()).State.OOMKilled;
  } catch {
    return false;
  }
}
