import type Docker from 'dockerode';
import { performance } from 'node:perf_hooks';
import { Readable, type Duplex } from 'node:stream';
import {
  APPLY_PATCH_PASS,
  buildEvalBundle,
  COPY_IN_REPO_DIR,
  END_TEST_OUTPUT,
  RUN_EXIT,
  testExitCodeFromLog,
  timeoutNotice,
  type EvalBundle,
} from '../../core/evaluation/script';
import type { ContainerSpec } from '../../core/evaluation/stepSpec';
import { isUserError } from '../../core/util/errors';
import { connectDocker } from './connect';
import type { EvaluationEngine, StepExecutor } from './executor';
import { ensureImage, type PullProgress } from './images';
import { LogSink } from './logSink';
import { createManagedContainer, removeManagedContainer } from './managed';
import { sweepOrphansInBackground } from './orphans';
import { orShutdown } from '../process/shutdown';
import { openRepositoryCopy, type RepoArchive } from './repoArchive';
import { locateRepoInImage } from './repoPath';
import { Cancelled, dockerMessage, type ContainerRun, type RunControl } from './stepRun';
import { swarmExecutor } from './swarm/executor';
import { writeAll, writeChunk } from './stdinFeed';
import { TAR_TRAILER, tarArchive } from './tar';
import { startBundleContainer, type WarmContainer } from './warmContainer';
import { evaluationHostConfig } from './network';

export const DEFAULT_TIMEOUT_S = 1800;
/** How long the log stream may stay open after its container stopped before it is cut. */
const STREAM_END_GRACE_MS = 5000;

/** The state under test: a diff from the spec's base commit, and the host repository holding that commit. */
export interface StateUnderTest {
  /** `git diff --binary baseCommit..state`; empty evaluates the base commit itself. */
  readonly stateDiff: string;
  /** Host git repository holding the base commit (read only when the repository is copied in). */
  readonly localRepo: string;
}

/** How this adapter runs the container: where its log goes, its limits, and what the caller has ready. */
export interface ContainerRunOptions {
  readonly runId: string;
  readonly logPath: string;
  /** Whole-run limit; default 1800 s like the harness. */
  readonly timeoutS?: number;
  readonly signal?: AbortSignal;
  readonly onLog?: (chunk: string) => void;
  readonly memoryLimitBytes?: number;
  /** Docker network mode of the container; none by default: tests run offline (network.ts). */
  readonly network?: string;
  readonly onPullProgress?: (e: PullProgress) => void;
  readonly docker?: Docker;
  /** Where the container runs: on the engine (default), or as a Swarm job service (executor.ts). */
  readonly engine?: EvaluationEngine;
  /**
   * A container started ahead for this evaluation (warmContainer.ts); the local engine takes it
   * when it is for the same image. Whoever passes it discards it afterwards (a no-op once taken).
   */
  readonly warm?: WarmContainer;
  /**
   * Given: the evaluation returns once its container has ended, and hands over the container's
   * removal still under way, for the caller to await before it reports the last result or exits
   * (the result is graded and recorded meanwhile). Omitted: it returns once the container is gone.
   */
  readonly onContainerRemoval?: (removed: Promise<void>) => void;
  /** The image's id when the caller looked it up already (used only if it names the same image). */
  readonly knownImage?: { readonly name: string; readonly id: string };
}

/** One evaluation as this module sees it: the container spec, the state under test, the run options. */
interface Job extends ContainerRunOptions, StateUnderTest {
  readonly spec: ContainerSpec;
}

export interface EvaluationResult {
  readonly log: string;
  /** The test command's exit code (from the eval script's exit-code line); null when tests did not finish. */
  readonly exitCode: number | null;
  readonly patchApplied: boolean;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** Trouble that is the environment's, not the code's: engine, image, OOM, container died. */
  readonly environmentError: string | null;
  readonly durationS: number;
  readonly logPath: string;
}

type Outcome = Omit<EvaluationResult, 'log' | 'durationS' | 'logPath'>;
const NOTHING: Outcome = {
  exitCode: null,
  patchApplied: false,
  timedOut: false,
  cancelled: false,
  environmentError: null,
};

/** Images found to have no `tar`: their files go in through the Docker API from then on. */
const imagesWithoutTar = new Set<string>();

function containerName(runId: string): string {
  const safe = runId.replace(/[^a-zA-Z0-9_.-]/g, '-').slice(0, 60);
  return `chainlens-${safe}-${Math.random().toString(36).slice(2, 8)}`;
}

function mib(bytes: number): string {
  return `${Math.round(bytes / (1 << 20))} MiB`;
}

/**
 * Evaluates one repository state in a fresh container of `image`, the way the SWE-bench harness
 * does (state diff through the patch fallback chain, test files reset, test patches, the test
 * command between the markers). The log streams to `logPath` and `onLog` as it is produced. The
 * container is removed whatever happens: success, failure, timeout, cancellation, process exit.
 */
export async function evaluateState(
  spec: ContainerSpec,
  state: StateUnderTest,
  options: ContainerRunOptions,
): Promise<EvaluationResult> {
  // A shutdown of this process (SIGTERM, SIGINT, SIGHUP) cancels the evaluation before its
  // container is removed: the exit that removal causes is ours, not the tests' (shutdown.ts).
  const o: Job = { ...options, ...state, spec, signal: orShutdown(options.signal) };
  const started = performance.now();
  const timeoutS = o.timeoutS ?? DEFAULT_TIMEOUT_S;
  const sink = new LogSink(o.logPath, o.onLog);
  const control: RunControl = {
    timedOut: false,
    cancelled: false,
    deadline: started + timeoutS * 1000,
    signal: o.signal,
  };
  let outcome: Outcome;
  try {
    const checkCancel = () => {
      if (o.signal?.aborted) throw new Cancelled();
    };
    checkCancel();
    const docker = o.docker ?? (await connectDocker());
    sweepOrphansInBackground(docker);
    const imageId =
      o.knownImage?.name === o.spec.image ? o.knownImage.id : await ensureImage(o.spec.image, o.onPullProgress, docker);
    checkCancel();
    // The one place the engine is chosen (executor.ts).
    const executor =
      o.engine === 'swarm'
        ? swarmExecutor(docker, o, imageId, sink, control)
        : localExecutor(docker, o, imageId, sink, control);
    const { image, located } = await executor.place();
    const repoPath = located?.path ?? null;
    checkCancel();
    const bundle = buildEvalBundle({
      repo:
        located === null
          ? { kind: 'copy-in', baseCommit: o.spec.baseCommit }
          : { kind: 'in-image', path: located.path, baseCommit: o.spec.baseCommit, resetToBase: !located.headIsBase },
      stateDiff: o.stateDiff,
      testPatches: o.spec.testPatches,
      testCmd: o.spec.testCmd,
      profile: o.spec.harness,
      shape: o.spec.scriptShape,
      buildCmd: o.spec.buildCmd,
    });
    sink.append(
      `ChainLens: image ${image}, repository ${repoPath === null ? `copied in at ${COPY_IN_REPO_DIR}` : `at ${repoPath} in the image`}, base ${o.spec.baseCommit}${executor.where}\n`,
    );
    const run = await executor.run(bundle, image, repoPath === null);
    // However the container ended, a run that a cancel or shutdown reached is not a result.
    if (o.signal?.aborted) control.cancelled = true;
    outcome = judge(run, o, control, sink, timeoutS);
  } catch (e) {
    if (e instanceof Cancelled || control.cancelled || o.signal?.aborted) outcome = { ...NOTHING, cancelled: true };
    else if (isUserError(e) && e.kind !== 'environment') {
      await sink.close();
      throw e;
    } else {
      const text = isUserError(e) ? e.message : `Docker engine error: ${dockerMessage(e)}`;
      sink.append(`ChainLens: ${text}\n`);
      outcome = { ...NOTHING, environmentError: text };
    }
  }
  await sink.close();
  return { ...outcome, log: sink.text(), durationS: (performance.now() - started) / 1000, logPath: o.logPath };
}

/**
 * The local step executor: a container on the engine, the bundle on its stdin (or through the
 * Docker API when the image has no tar), its output streamed into the sink as it runs.
 */
function localExecutor(docker: Docker, o: Job, imageId: string, sink: LogSink, control: RunControl): StepExecutor {
  return {
    where: '',
    async place() {
      const choice = o.spec.repoPath;
      const located =
        choice.kind === 'detect'
          ? await locateRepoInImage(o.spec.image, o.spec.baseCommit, docker, o.runId, imageId)
          : choice.kind === 'copy-in'
            ? null
            : { path: choice.path, headIsBase: true };
      return { image: o.spec.image, located };
    },
    async run(bundle, image, copyIn) {
      const attempt = (via: 'stdin' | 'api') => runContainer(docker, o, bundle, copyIn, via, sink, control);
      let run = await attempt(imagesWithoutTar.has(image) ? 'api' : 'stdin');
      if (run.statusCode === RUN_EXIT.noTar && !control.cancelled && !control.timedOut) {
        imagesWithoutTar.add(image);
        sink.append('ChainLens: the image has no tar; copying the files in through the Docker API instead\n');
        run = await attempt('api');
      }
      return run;
    },
  };
}

/** Turns how the container ended, and what its log says, into the evaluation's outcome. */
function judge(run: ContainerRun, o: Job, control: RunControl, sink: LogSink, timeoutS: number): Outcome {
  const log = sink.text();
  const applied = o.stateDiff.trim() === '' || new RegExp(`^${APPLY_PATCH_PASS}`, 'm').test(log);
  if (control.cancelled) return { ...NOTHING, cancelled: true, patchApplied: applied };
  if (control.timedOut) {
    sink.append(`\n\n${timeoutNotice(timeoutS)}\n`);
    return { ...NOTHING, timedOut: true, patchApplied: applied };
  }
  if (run.oomKilled) {
    const limit = o.memoryLimitBytes ? ` (limit ${mib(o.memoryLimitBytes)})` : '';
    return {
      ...NOTHING,
      patchApplied: applied,
      environmentError: `The evaluation container ran out of memory${limit} and was killed.`,
    };
  }
  if (run.statusCode === RUN_EXIT.setupFailed) {
    return {
      ...NOTHING,
      environmentError:
        'Could not set up the repository inside the container (git init/commit/reset failed; see the log).',
    };
  }
  if (run.statusCode === RUN_EXIT.noRepoInImage) {
    return {
      ...NOTHING,
      environmentError:
        `The image ${o.spec.image} has no git repository at ${o.spec.repoPath.kind === 'at' ? o.spec.repoPath.path : 'the path found for it'}: ` +
        'give the path where the image holds it, or none to copy the repository in (--repo-path-in-image, chainlens.repoPathInImage).',
    };
  }
  if (run.statusCode === RUN_EXIT.patchFailed) return { ...NOTHING, patchApplied: false };
  const exitCode = testExitCodeFromLog(log);
  const finished = o.spec.harness === 'v4' ? log.includes(END_TEST_OUTPUT) : exitCode !== null;
  if (finished) return { ...NOTHING, patchApplied: true, exitCode };
  return {
    ...NOTHING,
    patchApplied: applied,
    environmentError: `The evaluation container stopped before the tests finished (exit code ${run.statusCode}).`,
  };
}

/**
 * One container: create and start it (or take the one started ahead), deliver the bundle (a tar
 * stream on stdin, or the Docker API copy), stream its output into the sink, wait under the
 * deadline and the abort signal, remove it.
 */
async function runContainer(
  docker: Docker,
  o: Job,
  bundle: EvalBundle,
  copyIn: boolean,
  via: 'stdin' | 'api',
  sink: LogSink,
  control: RunControl,
): Promise<ContainerRun> {
  const stdin = via === 'stdin';
  let container: Docker.Container | undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let repoArchive: RepoArchive | undefined;
  const openCopy = () => openRepositoryCopy(o.localRepo, o.spec.baseCommit);
  try {
    let stream: Duplex;
    let streamDone: Promise<void>;
    if (stdin) {
      // A container started ahead for this image (warmContainer.ts), maybe holding the repository
      // copy already, else one started now.
      const started =
        (await o.warm?.take(o.spec.image, o.memoryLimitBytes, copyIn ? o.spec.baseCommit : null, o.network)) ??
        (await startBundleContainer(docker, {
          image: o.spec.image,
          runId: o.runId,
          name: containerName(o.runId),
          memoryLimitBytes: o.memoryLimitBytes,
          network: o.network,
        }));
      ({ container, stream, streamDone } = started);
      repoArchive = copyIn && !('repoStaged' in started && started.repoStaged) ? await openCopy() : undefined;
    } else {
      container = await createManagedContainer(docker, o.runId, {
        name: containerName(o.runId),
        Image: o.spec.image,
        // The harness runs its scripts with exec, which bypasses the image's entrypoint; so do we.
        Entrypoint: [''],
        Cmd: bundle.command,
        User: '0:0',
        WorkingDir: '/',
        Tty: false,
        AttachStdout: true,
        AttachStderr: true,
        HostConfig: evaluationHostConfig(o),
      });
      repoArchive = copyIn ? await openCopy() : undefined;
      await container.putArchive(tarArchive(bundle.files), { path: '/' });
      if (repoArchive)
        await Promise.all([container.putArchive(withTrailer(repoArchive.stream), { path: '/' }), repoArchive.done]);
      if (o.signal?.aborted) throw new Cancelled();
      stream = (await container.attach({ stream: true, stdout: true, stderr: true })) as Duplex;
      streamDone = new Promise<void>((resolve) => {
        stream.on('end', resolve);
        stream.on('close', resolve);
        stream.on('error', () => resolve());
      });
    }
    const out = sink.writable();
    docker.modem.demuxStream(stream, out, out);

    const running = container;
    const stop = () => void running.kill().catch(() => undefined);
    onAbort = () => {
      control.cancelled = true;
      stop();
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    if (!stdin) await container.start();
    timer = setTimeout(
      () => {
        control.timedOut = true;
        stop();
      },
      Math.max(0, control.deadline - performance.now()),
    );
    if (o.signal?.aborted) onAbort();
    // Caught at once (an unhandled rejection would end the process), rethrown after the wait.
    let feedError: unknown;
    const feeding = stdin
      ? feed(stream, repoArchive, tarArchive(bundle.files)).catch((e: unknown) => (feedError = e))
      : Promise.resolve();

    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    clearTimeout(timer);
    await feeding;
    if (feedError) throw feedError;
    // The attach stream ends when the container stops; do not hang if the engine keeps it open. The
    // fallback timer is cleared as soon as the stream ends: a pending timer would hold the CLI
    // process open for its whole length after the result is printed.
    let fallback: NodeJS.Timeout | undefined;
    await Promise.race([streamDone, new Promise((r) => (fallback = setTimeout(r, STREAM_END_GRACE_MS)))]);
    clearTimeout(fallback);
    stream.destroy();
    const state = (await container.inspect()).State;
    return { statusCode: StatusCode, oomKilled: state.OOMKilled };
  } finally {
    clearTimeout(timer);
    repoArchive?.abort();
    if (onAbort) o.signal?.removeEventListener('abort', onAbort);
    if (container) {
      const removed = removeManagedContainer(container);
      if (o.onContainerRemoval) o.onContainerRemoval(removed);
      else await removed;
    }
  }
}

/** A stream of tar entries made a whole archive, for the Docker API's copy. */
function withTrailer(entries: Readable): Readable {
  return Readable.from(
    (async function* () {
      for await (const chunk of entries) yield chunk as Buffer;
      yield TAR_TRAILER;
    })(),
  );
}

/**
 * Writes the repository copy (when it is not on stdin already) and then the bundle, which ends
 * the archive, to the container's stdin and closes it, so tar sees the end. A container that
 * stopped reading has ended, and how it ended is what counts: writing stops there, without an
 * error. A container started ahead may have ended before the first byte (an image without tar).
 */
async function feed(stream: Duplex, repoArchive: RepoArchive | undefined, files: Buffer): Promise<void> {
  try {
    if (repoArchive) {
      if (!(await writeAll(stream, repoArchive.stream))) return;
      await repoArchive.done;
    }
    await writeChunk(stream, files);
  } catch (e) {
    if (isUserError(e)) throw e;
  } finally {
    stream.end();
  }
}
