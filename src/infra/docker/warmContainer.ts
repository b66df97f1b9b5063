// A container started before its evaluation's bundle is known. Every bundle arriving on stdin is
// run by the same command (STDIN_BUNDLE_COMMAND), so the engine's slowest part of a step, creating
// and starting the container, can overlap with what comes before it: checking the chain out and
// replaying it, or the previous step's tests (docs/reference/containers.md, "Started ahead"). When
// the image lacks the repository, its copy (which depends only on the base commit) is written to
// the container's stdin as soon as it runs, and unpacked there while the chain is still replayed.
import type Docker from 'dockerode';
import type { Duplex } from 'node:stream';
// The bundle module alone: the eval command starts a container before the rest of it has loaded.
import { STDIN_BUNDLE_COMMAND } from '../../core/evaluation/script/bundle';
import { createManagedContainer, removeManagedContainer } from './managed';
import { evaluationHostConfig, evaluationNetwork } from './network';
import { openRepositoryCopy } from './repoArchive';
import { writeAll } from './stdinFeed';

/** A created, attached and started container, its shell waiting for a bundle on stdin. */
export interface StartedContainer {
  readonly container: Docker.Container;
  /** stdin for the bundle; stdout and stderr multiplexed. Unread output waits in the stream. */
  readonly stream: Duplex;
  /** Settles when the attach stream has ended (the container stopped) or failed. */
  readonly streamDone: Promise<void>;
}

/** A started container taken by an evaluation; `repoStaged`: the repository copy is on its stdin already. */
export interface TakenContainer extends StartedContainer {
  readonly repoStaged: boolean;
}

export interface BundleContainerOptions {
  readonly image: string;
  readonly runId: string;
  readonly name: string;
  readonly memoryLimitBytes?: number;
  /** Docker network mode; none by default (network.ts). */
  readonly network?: string;
}

/** Creates a container for one bundle on stdin, attaches to it and starts it. */
export async function startBundleContainer(docker: Docker, o: BundleContainerOptions): Promise<StartedContainer> {
  const container = await createManagedContainer(docker, o.runId, {
    name: o.name,
    Image: o.image,
    // The harness runs its scripts with exec, which bypasses the image's entrypoint; so do we.
    Entrypoint: [''],
    Cmd: [...STDIN_BUNDLE_COMMAND],
    User: '0:0',
    WorkingDir: '/',
    Tty: false,
    AttachStdout: true,
    AttachStderr: true,
    AttachStdin: true,
    OpenStdin: true,
    StdinOnce: true,
    HostConfig: evaluationHostConfig(o),
  });
  try {
    // Attached before it starts: nothing it writes can be missed.
    const stream = (await container.attach({
      stream: true,
      stdout: true,
      stderr: true,
      stdin: true,
      hijack: true,
    })) as Duplex;
    const streamDone = new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
    });
    await container.start();
    return { container, stream, streamDone };
  } catch (e) {
    await removeManagedContainer(container);
    throw e;
  }
}

/** The repository copy being written to a started container's stdin. */
interface Staging {
  readonly baseCommit: string;
  /** Settles once the copy is written (or the container stopped reading); rejects if the copy failed. */
  readonly written: Promise<void>;
  /** Stops the copy (harmless once written). */
  readonly abort: () => void;
}

/**
 * A container being started ahead of an evaluation in `image`. The evaluation takes it (and then
 * owns it), or it is discarded: an unused one is removed, never left running.
 */
export class WarmContainer {
  private taken = false;
  private discarded = false;
  private readonly starting: Promise<StartedContainer>;
  private staging: Staging | undefined;

  private constructor(
    readonly image: string,
    private readonly memoryLimitBytes: number | undefined,
    private readonly network: string,
    starting: Promise<StartedContainer>,
  ) {
    this.starting = starting;
    // A start that failed is not an error of anyone's yet: the evaluation then starts its own.
    starting.catch(() => undefined);
  }

  static start(docker: Docker, o: BundleContainerOptions): WarmContainer {
    return new WarmContainer(
      o.image,
      o.memoryLimitBytes,
      evaluationNetwork(o.network),
      startBundleContainer(docker, o),
    );
  }

  /**
   * Writes the copy of `baseCommit` from the host repository `localRepo` (repoArchive.ts) to the
   * container's stdin once it runs: an evaluation that copies the repository in then sends only
   * its own files. At most once.
   */
  stageRepository(localRepo: string, baseCommit: string): void {
    if (this.staging || this.taken) return;
    const holder: { copy?: Awaited<ReturnType<typeof openRepositoryCopy>>; aborted?: boolean } = {};
    const written = (async () => {
      // git reads the copy while the engine starts the container (its first MiB waits in the
      // stream): the copy is then ready the moment the container runs.
      const opening = openRepositoryCopy(localRepo, baseCommit);
      opening.then(
        (copy) => {
          holder.copy = copy;
          if (holder.aborted) copy.abort();
        },
        () => undefined,
      );
      const started = await this.starting.catch((e: unknown) => {
        holder.aborted = true;
        holder.copy?.abort();
        throw e;
      });
      const copy = await opening;
      if (this.discarded || holder.aborted) return copy.abort();
      // A container that stopped reading (an image without tar) ends with its own exit code.
      if (await writeAll(started.stream, copy.stream)) await copy.done;
      else copy.abort();
    })();
    const staging: Staging = {
      baseCommit,
      written,
      abort: () => {
        holder.aborted = true;
        holder.copy?.abort();
      },
    };
    staging.written.catch(() => undefined);
    this.staging = staging;
  }

  /**
   * The started container for an evaluation in `image` with that memory limit, whose repository
   * copy (`copyOf`: the base commit, or null when the image holds the repository) is the one
   * staged, if any; undefined when it is for something else, failed to start or to stage, or was
   * taken already (it is then discarded).
   */
  async take(
    image: string,
    memoryLimitBytes: number | undefined,
    copyOf: string | null,
    network?: string,
  ): Promise<TakenContainer | undefined> {
    if (this.taken) return undefined;
    const staged = this.staging;
    if (
      image !== this.image ||
      memoryLimitBytes !== this.memoryLimitBytes ||
      // Started ahead on another network: taking it would grade with a network not asked for.
      evaluationNetwork(network) !== this.network ||
      (staged !== undefined && staged.baseCommit !== copyOf)
    ) {
      await this.discard();
      return undefined;
    }
    this.taken = true;
    const started = await this.starting.catch(() => undefined);
    if (!started) return undefined;
    if (staged) {
      try {
        await staged.written;
      } catch {
        // A copy cut short leaves a torn archive on stdin: this container cannot be used.
        started.stream.destroy();
        await removeManagedContainer(started.container);
        return undefined;
      }
    }
    return { ...started, repoStaged: staged !== undefined };
  }

  /** Removes the container unless an evaluation took it. */
  async discard(): Promise<void> {
    if (this.taken) return;
    this.taken = true;
    this.discarded = true;
    this.staging?.abort();
    const started = await this.starting.catch(() => undefined);
    if (!started) return;
    started.stream.destroy();
    await removeManagedContainer(started.container);
  }
}
