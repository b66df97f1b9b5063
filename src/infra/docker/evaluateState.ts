import type Docker from 'dockerode';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import {
  APPLY_PATCH_PASS,
  buildEvalBundle,
  COPY_IN_REPO_DIR,
  END_TEST_OUTPUT,
  RUN_EXIT,
  testExitCodeFromLog,
  timeoutNotice,
  type HarnessProfile,
} from '../../core/eval';
import { isUserError } from '../../core/util/errors';
import { connectDocker } from './connect';
import { ensureImage, type PullProgress } from './images';
import { LogSink } from './logSink';
import { managedLabels, trackContainer, untrackContainer } from './managed';
import { openRepoArchive } from './repoArchive';
import { detectRepoPath } from './repoPath';
import { tarArchive } from './tar';

export const DEFAULT_TIMEOUT_S = 1800;

export interface EvaluateStateOptions {
  readonly image: string;
  /** Path of the repository in the image; null = the image lacks it (copy it in); omitted = detect. */
  readonly repoPathInImage?: string | null;
  /** Host git repository holding baseCommit (read only when the repository is copied in). */
  readonly localRepo: string;
  readonly baseCommit: string;
  /** `git diff --binary baseCommit..state`; empty evaluates the base commit itself. */
  readonly stateDiff: string;
  /** Applied in order after the files they touch were reset (a chain: the test patches of bugs 1..k). */
  readonly testPatches: readonly string[];
  readonly testCmd: string;
  /** Whole-run limit; default 1800 s like the harness. */
  readonly timeoutS?: number;
  readonly signal?: AbortSignal;
  readonly runId: string;
  readonly logPath: string;
  readonly onLog?: (chunk: string) => void;
  readonly memoryLimitBytes?: number;
  /** Environment set-up before the tests (e.g. conda activation), like the harness's eval_commands. */
  readonly preamble?: readonly string[];
  readonly profile?: HarnessProfile;
  readonly onPullProgress?: (e: PullProgress) => void;
  readonly docker?: Docker;
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
const NOTHING: Outcome = { exitCode: null, patchApplied: false, timedOut: false, cancelled: false, environmentError: null };

class Cancelled extends Error {}

function message(e: unknown): string {
  if (typeof e === 'object' && e !== null && 'json' in e) {
    const json = (e as { json?: { message?: string } }).json;
    if (json?.message) return json.message;
  }
  return e instanceof Error ? e.message : String(e);
}

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
export async function evaluateState(o: EvaluateStateOptions): Promise<EvaluationResult> {
  const started = performance.now();
  const timeoutS = o.timeoutS ?? DEFAULT_TIMEOUT_S;
  const sink = new LogSink(o.logPath, o.onLog);
  let container: Docker.Container | undefined;
  let outcome: Outcome;
  let timedOut = false;
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const checkCancel = () => {
    if (o.signal?.aborted) throw new Cancelled();
  };

  try {
    checkCancel();
    const docker = o.docker ?? (await connectDocker());
    await ensureImage(o.image, o.onPullProgress, docker);
    checkCancel();
    const repoPath = o.repoPathInImage === undefined ? await detectRepoPath(o.image, o.baseCommit, docker, o.runId) : o.repoPathInImage;
    checkCancel();
    const bundle = buildEvalBundle({
      repo: repoPath === null ? { kind: 'copy-in', baseCommit: o.baseCommit } : { kind: 'in-image', path: repoPath, baseCommit: o.baseCommit },
      stateDiff: o.stateDiff,
      testPatches: o.testPatches,
      testCmd: o.testCmd,
      profile: o.profile,
      preamble: o.preamble,
    });
    sink.append(`ChainLens: image ${o.image}, repository ${repoPath === null ? `copied in at ${COPY_IN_REPO_DIR}` : `at ${repoPath} in the image`}, base ${o.baseCommit}\n`);

    container = await docker.createContainer({
      name: containerName(o.runId),
      Image: o.image,
      // The harness runs its scripts with exec, which bypasses the image's entrypoint; so do we.
      Entrypoint: [''],
      Cmd: bundle.command,
      User: '0:0',
      WorkingDir: '/',
      Tty: false,
      AttachStdout: true,
      AttachStderr: true,
      Labels: managedLabels(o.runId),
      HostConfig: o.memoryLimitBytes ? { Memory: o.memoryLimitBytes, MemorySwap: o.memoryLimitBytes } : {},
    });
    trackContainer(container);
    await container.putArchive(tarArchive(bundle.files), { path: '/' });
    if (repoPath === null) {
      const archive = await openRepoArchive(o.localRepo, o.baseCommit, `${COPY_IN_REPO_DIR.slice(1)}/`);
      await Promise.all([container.putArchive(archive.stream, { path: '/' }), archive.done]);
    }
    checkCancel();

    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    const out = sink.writable();
    const streamDone = new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
    });
    docker.modem.demuxStream(stream, out, out);

    const running = container;
    const stop = () => void running.kill().catch(() => undefined);
    onAbort = () => {
      cancelled = true;
      stop();
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    await container.start();
    timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutS * 1000);
    if (o.signal?.aborted) onAbort();

    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    clearTimeout(timer);
    // The attach stream ends when the container stops; do not hang if the engine keeps it open.
    await Promise.race([streamDone, new Promise((r) => setTimeout(r, 5000))]);
    (stream as Partial<Duplex>).destroy?.();
    const state = (await container.inspect()).State;
    const log = sink.text();
    const applied = o.stateDiff.trim() === '' || new RegExp(`^${APPLY_PATCH_PASS}`, 'm').test(log);

    if (cancelled) outcome = { ...NOTHING, cancelled: true, patchApplied: applied };
    else if (timedOut) {
      sink.append(`\n\n${timeoutNotice(timeoutS)}\n`);
      outcome = { ...NOTHING, timedOut: true, patchApplied: applied };
    } else if (state.OOMKilled) {
      const limit = o.memoryLimitBytes ? ` (limit ${mib(o.memoryLimitBytes)})` : '';
      outcome = { ...NOTHING, patchApplied: applied, environmentError: `The evaluation container ran out of memory${limit} and was killed.` };
    } else if (StatusCode === RUN_EXIT.setupFailed) {
      outcome = { ...NOTHING, environmentError: 'Could not set up the repository copy inside the container (git init/commit failed; see the log).' };
    } else if (StatusCode === RUN_EXIT.patchFailed) {
      outcome = { ...NOTHING, patchApplied: false };
    } else {
      const exitCode = testExitCodeFromLog(log);
      const finished = o.profile === 'v4' ? log.includes(END_TEST_OUTPUT) : exitCode !== null;
      outcome = finished
        ? { ...NOTHING, patchApplied: true, exitCode }
        : { ...NOTHING, patchApplied: applied, environmentError: `The evaluation container stopped before the tests finished (exit code ${StatusCode}).` };
    }
  } catch (e) {
    clearTimeout(timer);
    if (e instanceof Cancelled || cancelled) outcome = { ...NOTHING, cancelled: true };
    else if (isUserError(e) && e.kind !== 'environment') {
      await cleanup(container, sink);
      throw e;
    } else {
      const text = isUserError(e) ? e.message : `Docker engine error: ${message(e)}`;
      sink.append(`ChainLens: ${text}\n`);
      outcome = { ...NOTHING, environmentError: text };
    }
  } finally {
    if (onAbort) o.signal?.removeEventListener('abort', onAbort);
  }
  await cleanup(container, sink);
  return { ...outcome, log: sink.text(), durationS: (performance.now() - started) / 1000, logPath: o.logPath };
}

async function cleanup(container: Docker.Container | undefined, sink: LogSink): Promise<void> {
  if (container) {
    await container.remove({ force: true, v: true }).catch(() => undefined);
    untrackContainer(container);
  }
  await sink.close();
}
