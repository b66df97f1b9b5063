import { applyPatchScript } from './applyPatchScript';
import { buildEvalScript, type EvalScriptShape, type HarnessProfile } from './evalScript';
import { shellQuote } from './shell';
import { testFilesPlan } from './testFiles';

/** Everything ChainLens puts into an evaluation container lives under this directory. */
export const BUNDLE_DIR = '/chainlens';
/** Where the repository goes when the image does not hold it. */
export const COPY_IN_REPO_DIR = '/chainlens/repo';
/** Exit codes of run.sh (and of the stdin bootstrap) that are not the eval script's own. */
export const RUN_EXIT = { setupFailed: 80, patchFailed: 81, noTar: 82, noRepoInImage: 83 } as const;

/** What runs a bundle whose files are in place: every bundle has its run.sh. */
const BUNDLE_COMMAND = ['/bin/bash', `${BUNDLE_DIR}/run.sh`] as const;
/**
 * What runs a bundle arriving as a tar stream on stdin: unpack, then run. The same for every
 * bundle, so a container can be started before its bundle is known (docs/reference/containers.md).
 */
export const STDIN_BUNDLE_COMMAND = [
  '/bin/sh',
  '-c',
  `command -v tar >/dev/null 2>&1 || exit ${RUN_EXIT.noTar}; tar -x -f - -C / && exec ${BUNDLE_COMMAND.join(' ')}`,
] as const;

export type RepoPlacement =
  /**
   * The image holds a git work tree at `path` whose HEAD is the base commit, or (`resetToBase`)
   * a later commit whose history holds it: the work tree is put back at the base first.
   */
  | { readonly kind: 'in-image'; readonly path: string; readonly baseCommit: string; readonly resetToBase?: boolean }
  /**
   * The image lacks the repo: the base commit's files and a git directory holding that commit
   * alone arrive at COPY_IN_REPO_DIR (src/infra/docker/repoArchive.ts); the index is rebuilt there.
   */
  | { readonly kind: 'copy-in'; readonly baseCommit: string };

export interface EvalBundleInput {
  readonly repo: RepoPlacement;
  /** `git diff --binary base..state`; empty = evaluate the base commit itself. */
  readonly stateDiff: string;
  /** Applied in order after the test files were reset (a chain's test patches of bugs 1..k). */
  readonly testPatches: readonly string[];
  readonly testCmd: string;
  readonly profile?: HarnessProfile;
  readonly shape?: EvalScriptShape;
  readonly buildCmd?: string;
}

export interface BundleFile {
  /** Absolute path inside the container. */
  readonly path: string;
  readonly content: string;
  readonly mode: number;
}

export interface EvalBundle {
  readonly files: BundleFile[];
  /** The container's command once the files are in place (copied in through the Docker API). */
  readonly command: string[];
  /**
   * The container's command when the files arrive as a tar stream on stdin: unpack, then run.
   * Cheaper than the API copy, which mounts the container's file system one extra time.
   */
  readonly stdinCommand: string[];
  readonly repoDir: string;
  readonly baseRef: string;
}

const withNewline = (s: string) => (s.endsWith('\n') ? s : s + '\n');

/**
 * The copied-in repository arrives without an index: `git reset` builds it from the base commit
 * and the files it finds (nothing is hashed into new objects), so `git status`, `git apply --3way`
 * and the test-file reset see the tree as the base commit, like a repository an image holds.
 */
function copyInChecks(): string[] {
  const dir = shellQuote(COPY_IN_REPO_DIR);
  return [
    `git -c safe.directory='*' -C ${dir} reset -q || { echo 'ChainLens: could not set up the repository copy in the container'; exit ${RUN_EXIT.setupFailed}; }`,
  ];
}

/**
 * Before anything touches a repository the image is said to hold: a path with no git work tree
 * there is the placement's fault, not the patch's, and ends the run with its own exit code. A
 * work tree at a later commit is reset to the base (its history holds it; the probe checked).
 */
function inImageChecks(repoDir: string, baseCommit: string, resetToBase: boolean): string[] {
  const dir = shellQuote(repoDir);
  const lines = [
    `git -c safe.directory='*' -C ${dir} rev-parse --verify -q HEAD >/dev/null 2>&1 || { echo ${shellQuote(`ChainLens: the image has no git repository at ${repoDir}`)}; exit ${RUN_EXIT.noRepoInImage}; }`,
  ];
  if (resetToBase)
    lines.push(
      `echo ${shellQuote(`ChainLens: resetting ${repoDir} from its HEAD to the base commit ${baseCommit}`)}`,
      `git -c safe.directory='*' -C ${dir} reset -q --hard ${shellQuote(baseCommit)} || exit ${RUN_EXIT.setupFailed}`,
    );
  return lines;
}

/**
 * The files and command of one evaluation container: run.sh checks the repository (and indexes a
 * copied-in one), applies
 * the state diff with the harness's fallback chain, then execs the harness-shaped eval script.
 */
export function buildEvalBundle(input: EvalBundleInput): EvalBundle {
  const copyIn = input.repo.kind === 'copy-in';
  const repoDir = input.repo.kind === 'in-image' ? input.repo.path : COPY_IN_REPO_DIR;
  const baseRef = input.repo.baseCommit;
  const plan = testFilesPlan(input.testPatches);
  const testPatchFiles = input.testPatches.map((_, i) => `${BUNDLE_DIR}/test_patch_${i + 1}.diff`);
  const files: BundleFile[] = input.testPatches.map((p, i) => ({
    path: testPatchFiles[i],
    content: withNewline(p),
    mode: 0o644,
  }));

  const run = ['#!/bin/bash', '# ChainLens: one container = one evaluation (set-up, state under test, eval script).'];
  if (copyIn) {
    run.push(...copyInChecks());
  } else {
    run.push(
      ...inImageChecks(repoDir, input.repo.baseCommit, input.repo.kind === 'in-image' && !!input.repo.resetToBase),
    );
  }
  if (input.stateDiff.trim() === '') {
    run.push("echo 'ChainLens: the state under test has no changes from the base commit'");
  } else {
    files.push({ path: `${BUNDLE_DIR}/state.diff`, content: withNewline(input.stateDiff), mode: 0o644 });
    files.push({
      path: `${BUNDLE_DIR}/apply_state.sh`,
      content: applyPatchScript(`${BUNDLE_DIR}/state.diff`, repoDir),
      mode: 0o755,
    });
    run.push(`bash ${BUNDLE_DIR}/apply_state.sh || exit ${RUN_EXIT.patchFailed}`);
  }
  const evalScript = buildEvalScript({
    repoDir,
    baseRef,
    testPatchFiles,
    testFilesToReset: plan.reset,
    testFilesToDelete: plan.remove,
    testCmd: input.testCmd,
    profile: input.profile,
    shape: input.shape,
    buildCmd: input.buildCmd,
  });
  files.push({ path: `${BUNDLE_DIR}/eval.sh`, content: evalScript, mode: 0o755 });
  // One stream, as the harness reads one: the script's trace (stderr) and the tests' output
  // (stdout) through the same pipe keep their order in the log, so a result line never lands
  // after the end marker (docs/reference/grading.md).
  run.push(`exec bash ${BUNDLE_DIR}/eval.sh 2>&1`);
  files.push({ path: `${BUNDLE_DIR}/run.sh`, content: run.join('\n') + '\n', mode: 0o755 });
  return { files, command: [...BUNDLE_COMMAND], stdinCommand: [...STDIN_BUNDLE_COMMAND], repoDir, baseRef };
}
