// One chain step's evaluation, decided once: the SWE-bench harness's TestSpec
// (harness/test_spec/test_spec.py, make_test_spec) made for a chain step. Every dataset rule that
// picks how a step is run and graded (parser, eval type, test and build commands, which test
// patches, the script's shape) is here and nowhere else; the use case (src/app/evaluation) builds
// the spec, the container adapter (src/infra/docker) runs its container half, and grading reads
// its grading half. Pure: testable without Docker.
import type { Chain } from '../../protocol/chain';
import type { StepGrading } from '../../protocol/codethread';
import type { EvalType, GradingProfile, LogParserName } from '../../protocol/grading';
import { OptionError } from '../util/errors';
import { evalTypeForRepo, mappedParserForRepo, PYTHON_LOG_PARSERS } from './grading';
import { buildCommandFor, testCommandFor, type EvalScriptShape, type HarnessProfile } from './script';

/** Where the image holds the repository: probe it, the image lacks it (copy it in), or at `path`. */
export type RepoPathChoice =
  { readonly kind: 'detect' } | { readonly kind: 'copy-in' } | { readonly kind: 'at'; readonly path: string };

/** What a container needs to run one evaluation: the image, the repository, the eval script's inputs. */
export interface ContainerSpec {
  readonly image: string;
  readonly baseCommit: string;
  readonly repoPath: RepoPathChoice;
  /** Applied in order after the test files were reset (a chain: the test patches of steps 1..k). */
  readonly testPatches: readonly string[];
  readonly testCmd: string;
  /** Run after the test patches, before the tests (the harness's `build` spec). */
  readonly buildCmd?: string;
  /** The harness's eval-script shape for the repository's language (python, or the common one). */
  readonly scriptShape: EvalScriptShape;
  /** Which harness version's script: v5 records the test command's exit code, v4 does not. */
  readonly harness: HarnessProfile;
}

/** One step's evaluation: what its container runs, and how its log is graded. */
export interface StepSpec extends ContainerSpec {
  readonly order: number;
  readonly instanceId: string;
  /** owner/name */
  readonly repo: string;
  readonly version?: string;
  readonly parser: LogParserName;
  readonly evalType: EvalType;
  readonly failToPass: readonly string[];
  readonly passToPass: readonly string[];
  readonly profile: GradingProfile;
  /** resolve (the benchmark's rule) or CodeThread's PR1 filter. */
  readonly grading: StepGrading;
}

export interface StepSpecOptions {
  /** An image other than the chain's (--image, the chainlens.image setting). */
  readonly image?: string;
  /** Where the image holds the repository; default: detect. */
  readonly repoPath?: RepoPathChoice;
  /** Default: swebench-v5. */
  readonly profile?: GradingProfile;
}

export const DEFAULT_GRADING_PROFILE: GradingProfile = 'swebench-v5';

/** The image a chain's steps are evaluated in: the override, else the chain's docker_image. */
export function evaluationImage(chain: Pick<Chain, 'id' | 'dockerImage'>, override?: string): string {
  const image = override ?? chain.dockerImage;
  if (!image)
    throw new OptionError(
      'image',
      `chain '${chain.id}' names no docker_image; give the image to evaluate it in`,
      'environment',
    );
  return image;
}

/**
 * The log parser: a dataset's own (newer SWE-bench datasets carry `log_parser`, `chainlens grade
 * --parser` names one) wins over the harness's repository map, which falls back to pytest.
 */
export function logParserFor(own: LogParserName | undefined, repo: string | undefined): LogParserName {
  return own ?? (repo ? mappedParserForRepo(repo) : null) ?? 'pytest';
}

/** The eval type: a dataset's own `eval_type` wins over the harness's fail-only repositories. */
export function evalTypeFor(own: EvalType | undefined, repo: string | undefined, profile: GradingProfile): EvalType {
  return own ?? evalTypeForRepo(repo ?? '', profile);
}

/**
 * The spec of the step at `index` of `chain`. Its test patches are those of steps 1..k (a chain's
 * step is graded with every hidden test so far), each applied once: both steps of a CodeThread task
 * carry the same one. Throws a UserError for a step ChainLens cannot run (no image, a SWE-bench Pro
 * instance without its test command).
 */
export function stepSpecFor(chain: Chain, index: number, options: StepSpecOptions = {}): StepSpec {
  const step = chain.steps[index];
  const profile = options.profile ?? DEFAULT_GRADING_PROFILE;
  const image = evaluationImage(chain, options.image);
  const testPatches = chain.steps
    .slice(0, index + 1)
    .map((s) => s.testPatch)
    .filter((p, i, all) => p.trim() !== '' && all.indexOf(p) === i);
  const parser = logParserFor(step.logParser, chain.repo);
  return {
    order: step.order,
    instanceId: step.instanceId,
    repo: chain.repo,
    ...(step.version !== undefined ? { version: step.version } : {}),
    image,
    baseCommit: chain.baseCommit,
    repoPath: options.repoPath ?? { kind: 'detect' },
    testPatches,
    testCmd: testCommandFor({
      repo: chain.repo,
      version: step.version,
      testCmds: step.testCmd,
      testPatches: [step.testPatch],
      testFiles: step.testFiles,
      instanceId: step.instanceId,
    }),
    ...optional('buildCmd', buildCommandFor({ repo: chain.repo, version: step.version, buildCmd: step.buildCmd })),
    scriptShape: PYTHON_LOG_PARSERS.has(parser) ? 'python' : 'common',
    harness: profile === 'swebench-v4' ? 'v4' : 'v5',
    parser,
    evalType: evalTypeFor(step.evalType, chain.repo, profile),
    failToPass: step.failToPass,
    passToPass: step.passToPass,
    profile,
    grading: step.grading ?? 'resolve',
  };
}

/** `--repo-path-in-image` / `chainlens.repoPathInImage` / a batch's `repo_path_in_image` as a choice. */
export function repoPathChoice(value: string | null | undefined): RepoPathChoice {
  if (value === undefined) return { kind: 'detect' };
  if (value === null) return { kind: 'copy-in' };
  return { kind: 'at', path: value };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
