// A container started before its evaluation's bundle is known. Every bundle arriving on stdin is
// run by the same command (STDIN_BUNDLE_COMMAND), so the engine's slowest part of a step, creating
// and starting the container, can overlap with what comes before it: checking the chain out and
// replaying it, or the previous step's tests (docs/reference/containers.md, "Started ahead").
import type Docker from 'dockerode';
import type { Duplex } from 'node:stream';
import { STDIN_BUNDLE_COMMAND } from '../../core/evaluation/script';
import { createManagedContainer, removeManagedContainer } from './managed';

/** A created, attached and started container, its shell waiting for a bundle on stdin. */
export interface StartedContainer {
  readonly container: Docker.Container;
  /** stdin for the bundle; stdout and stderr multiplexed. Unread output waits in the stream. */
  readonly stream: Duplex;
  /** Settles when the attach stream has ended (the container stopped) or failed. */
  readonly streamDone: Promise<void>;
}

export interface BundleContainerOptions {
  readonly image: string;
  readonly runId: string;
  readonly name: string;
  readonly memoryLimitBytes?: number;
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
    HostConfig: o.memoryLimitBytes ? { Memory: o.memoryLimitBytes, MemorySwap: o.memoryLimitBytes } : {},
  });
  try {
    // Attached before it starts: nothing it writes can be missed.
    const stream = (await container.attach({ stream: true, stdout: true, stderr: true, stdin: true, hijack: true })) as Duplex;
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

/**
 * A container being started ahead of an evaluation in `image`. The evaluation takes it (and then
 * owns it), or it is discarded: an unused one is removed, never left running.
 */
export class WarmContainer {
  private taken = false;
  private readonly starting: Promise<StartedContainer>;

  private constructor(
    readonly image: string,
    private readonly memoryLimitBytes: number | undefined,
    starting: Promise<StartedContainer>,
  ) {
    this.starting = starting;
    // A start that failed is not an error of anyone's yet: the evaluation then starts its own.
    starting.catch(() => undefined);
  }

  static start(docker: Docker, o: BundleContainerOptions): WarmContainer {
    return new WarmContainer(o.image, o.memoryLimitBytes, startBundleContainer(docker, o));
  }

  /**
   * The started container for an evaluation in `image` with that memory limit; undefined when it
   * is for something else, failed to start, or was taken already (it is then discarded).
   */
  async take(image: string, memoryLimitBytes: number | undefined): Promise<StartedContainer | undefined> {
    if (this.taken) return undefined;
    if (image !== this.image || memoryLimitBytes !== this.memoryLimitBytes) {
      await this.discard();
      return undefined;
    }
    this.taken = true;
    return this.starting.catch(() => undefined);
  }

  /** Removes the container unless an evaluation took it. */
  async discard(): Promise<void> {
    if (this.taken) return;
    this.taken = true;
    const started = await this.starting.catch(() => undefined);
    if (!started) return;
    started.stream.destroy();
    await removeManagedContainer(started.container);
  }
}
