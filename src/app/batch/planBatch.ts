import {
  BATCH_FORMAT,
  BATCH_VERSION,
  type BatchManifest,
  type BatchMode,
  type BatchSource,
} from '../../protocol/batch';
import type { GradingProfile } from '../../protocol/grading';
import { DEFAULT_AGENT_TIMEOUT_S, type AgentPlacementKind } from '../../protocol/agentLoop';
import { imageReferenceProblem } from '../../core/formats/imageReference';
import { OptionError, UserError, isUserError } from '../../core/util/errors';
import { readDataset } from '../../infra/batch/dataset';
import { checkSourceCoversDataset, loadSource, parseAgentSpec, parseSourceSpec } from '../../infra/batch/sources';
import { BatchRunDir } from '../../infra/batch/runDir';
import { connectDocker, ensureImage } from '../../infra/docker';
import { describeRepoSource, parseRepoSource } from '../../infra/git/mirror';

export interface PlanBatchOptions {
  readonly cwd: string;
  readonly runDir: string;
  readonly dataset: readonly string[];
  /** `gold`, a predictions file or a trajectory folder, optionally `name=path`. */
  readonly sources: readonly string[];
  /** `NAME=COMMAND`: agents the batch runs on each step (docs/reference/agents.md). */
  readonly agents?: readonly string[];
  readonly modes: readonly BatchMode[];
  /** `path|url` for every chain, or `owner/name=path|url` per repository. */
  readonly repos: readonly string[];
  readonly profile?: GradingProfile;
  readonly timeoutS?: number;
  readonly image?: string;
  /** An absolute path, or `none` (the image lacks the repository: copy it in). */
  readonly repoPathInImage?: string;
  /** Agent sources: where their commands run (default container), its image, seconds per step. */
  readonly agentIn?: AgentPlacementKind;
  readonly agentImage?: string;
  readonly agentTimeoutS?: number;
  /** Evaluations of each graded step on the same commit, to tell flaky tests (default 1). */
  readonly repeats?: number;
}

/**
 * Reads and checks everything a batch needs (dataset, prediction sources, repositories, the
 * engine, every image) and returns its manifest; writes nothing, so bad input leaves no trace.
 */
export async function planBatch(o: PlanBatchOptions): Promise<BatchManifest> {
  if (o.dataset.length === 0) throw new UserError('give at least one dataset file', 'usage');
  const agents = o.agents ?? [];
  if (o.sources.length === 0 && agents.length === 0)
    throw new OptionError(
      'predictions',
      'give at least one source of patches (a file, a folder, or gold) or an agent (NAME=COMMAND)',
    );
  if (o.repeats !== undefined && (!Number.isInteger(o.repeats) || o.repeats < 1 || o.repeats > 100))
    throw new OptionError('repeats', `must be a number of evaluations per step from 1 to 100, not ${o.repeats}`);
  if (o.image !== undefined && imageReferenceProblem(o.image))
    throw new OptionError('image', imageReferenceProblem(o.image)!);
  if (o.repoPathInImage !== undefined && o.repoPathInImage !== 'none' && !o.repoPathInImage.startsWith('/'))
    throw new OptionError('repoPathInImage', `must be an absolute path or none, not '${o.repoPathInImage}'`);
  const sources: BatchSource[] = [...o.sources.map((s) => parseSourceSpec(o.cwd, s)), ...agents.map(parseAgentSpec)];
  const names = new Set<string>();
  for (const s of sources) {
    if (names.has(s.name))
      throw new OptionError(
        'predictions',
        `two sources are named '${s.name}'; name them with name=path (a recorded source) or NAME=COMMAND (an agent)`,
      );
    names.add(s.name);
  }
  // Seq+Mem keeps an agent's memory from step to step: a recorded source has none to keep.
  const recorded = sources.filter((s) => s.kind !== 'agent');
  if (o.modes.includes('seq+mem') && recorded.length)
    throw new OptionError(
      'mode',
      `seq+mem applies to agent sources only; '${recorded[0].name}' is recorded (give it its own batch in oracle and seq)`,
    );
  if (agents.length === 0 && (o.agentIn !== undefined || o.agentImage !== undefined || o.agentTimeoutS !== undefined))
    throw new OptionError('agent', 'an agent placement, image or timeout applies to agent sources; give one');
  const chains = await readDataset(o.cwd, o.dataset);
  const ids = new Set(chains.flatMap((c) => c.chain.steps.map((s) => s.instanceId)));
  for (const s of sources) checkSourceCoversDataset(loadSource(s), ids);

  const repos: Record<string, string> = {};
  for (const spec of o.repos) {
    const m = /^([^=/\s]+\/[^=\s]+)=(.+)$/.exec(spec);
    const source = parseRepoSource(m ? m[2] : spec, o.cwd);
    repos[m ? m[1] : '*'] = describeRepoSource(source);
  }
  const unrepo = [...new Set(chains.map((c) => c.chain.repo))].filter((r) => !repos[r] && !repos['*']);
  if (unrepo.length)
    throw new OptionError(
      'repo',
      `no repository for ${unrepo.join(', ')}: give one repository for all chains, or one per owner/name`,
    );

  const noImage = chains.filter((c) => !c.chain.dockerImage && !o.image);
  if (noImage.length)
    throw new OptionError(
      'image',
      `chain(s) ${noImage
        .map((c) => c.chain.id)
        .slice(0, 5)
        .join(', ')} name no docker_image; give the image to evaluate them in`,
    );
  const docker = await connectDocker();
  const agentImages = agents.length && (o.agentIn ?? 'container') === 'container' && o.agentImage ? [o.agentImage] : [];
  for (const image of new Set([...chains.map((c) => o.image ?? c.chain.dockerImage!), ...agentImages])) {
    try {
      await ensureImage(image, undefined, docker);
    } catch (e) {
      const users = chains.filter((c) => (o.image ?? c.chain.dockerImage) === image).map((c) => c.origin);
      throw new UserError(
        `${isUserError(e) ? e.message : String(e)} (named by ${users.length ? users.slice(0, 3).join(', ') : 'the agent image'})`,
        'environment',
      );
    }
  }
  return {
    format: BATCH_FORMAT,
    version: BATCH_VERSION,
    created_at: new Date().toISOString(),
    dataset: chains.map((c) => c.origin.replace(/:\d+$/, '')).filter((f, i, all) => all.indexOf(f) === i),
    repos,
    sources,
    modes: [...o.modes],
    chains: chains.map((c) => ({
      id: c.chain.id,
      origin: c.origin,
      repo: c.chain.repo,
      ...(c.chain.source ? { source: c.chain.source } : {}),
      image: o.image ?? c.chain.dockerImage!,
      steps: c.chain.steps.map((s) => ({ order: s.order, instance_id: s.instanceId })),
    })),
    options: {
      profile: o.profile ?? 'swebench-v5',
      timeout_s: o.timeoutS ?? null,
      image: o.image ?? null,
      repo_path_in_image: o.repoPathInImage ?? null,
      ...(o.repeats !== undefined && o.repeats > 1 ? { repeats: o.repeats } : {}),
      ...(agents.length
        ? {
            agent_in: o.agentIn ?? 'container',
            agent_image: o.agentImage ?? null,
            agent_timeout_s: o.agentTimeoutS ?? DEFAULT_AGENT_TIMEOUT_S,
          }
        : {}),
    },
  };
}

/**
 * The run directory for `planned`: a new one gets the manifest; an existing one must hold the
 * same batch (dataset, sources, modes, chains), or resuming would mix two batches' records.
 */
export function openOrCreateRunDir(planned: BatchManifest, runDir: string): { dir: BatchRunDir; resumed: boolean } {
  const dir = new BatchRunDir(runDir);
  if (!dir.exists) {
    dir.writeManifest(planned);
    return { dir, resumed: false };
  }
  const old = dir.readManifest();
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const differs = [
    !same(old.dataset, planned.dataset) && 'dataset files',
    !same(old.sources, planned.sources) && 'prediction sources',
    !same(old.modes, planned.modes) && 'modes',
    !same(old.chains, planned.chains) && 'chains',
    !same(old.options, planned.options) && 'evaluation options',
  ].filter((x): x is string => !!x);
  if (differs.length)
    throw new UserError(
      `${dir.root} holds another batch (its ${differs.join(', ')} differ); resume it as it was started (its run directory alone, nothing else), or start this batch in a new run directory`,
      'usage',
    );
  return { dir, resumed: true };
}
