// The containers of a run's evaluations, prepared once (docs/reference/containers.md, "Started
// ahead"): the image checked (pulled when the engine lacks it), where it holds the repository,
// and each next step's container started while the step before it runs its tests, holding the
// repository copy already when the image lacks it. evaluateSteps takes one; `chainlens eval`
// prepares it while the chain is replayed.
import type { ContainerSpec } from '../../core/evaluation/stepSpec';
import { ensureImage, locateRepoInImage, WarmContainer, type RepoInImage } from '../../infra/docker';

type Docker = Parameters<typeof WarmContainer.start>[0];

export class StepContainers {
  private constructor(
    private readonly docker: Docker,
    private readonly spec: Pick<ContainerSpec, 'image' | 'baseCommit'>,
    private readonly imageId: string,
    /** null: the image lacks the repository; undefined: the probe failed (each evaluation looks again). */
    private readonly placement: Promise<RepoInImage | null | undefined>,
    private readonly label: string,
  ) {}

  /**
   * Checks the image (pulling it when the engine lacks it: `lookedUp` null) and starts looking for
   * the repository in it. Rejects when no engine answers or the image is not there to be had, so a
   * command fails before it writes anything. `label` names the containers (chainlens-<label>-…).
   */
  static async prepare(
    docker: Docker,
    spec: Pick<ContainerSpec, 'image' | 'baseCommit' | 'repoPath'>,
    options: { lookedUp?: string | null; label: string },
  ): Promise<StepContainers> {
    const imageId = await ensureImage(spec.image, undefined, docker, options.lookedUp);
    const choice = spec.repoPath;
    const placement: Promise<RepoInImage | null | undefined> =
      choice.kind === 'detect'
        ? locateRepoInImage(spec.image, spec.baseCommit, docker, options.label, imageId).catch(() => undefined)
        : Promise.resolve(choice.kind === 'copy-in' ? null : { path: choice.path, headIsBase: true });
    return new StepContainers(docker, spec, imageId, placement, options.label);
  }

  /** The image as checked, for evaluateState not to look it up again. */
  get knownImage(): { readonly name: string; readonly id: string } {
    return { name: this.spec.image, id: this.imageId };
  }

  /**
   * A container started now for a step to come; when the image lacks the repository, the copy of
   * the base commit from `localRepo` (a repository holding it) is written to it as soon as it runs.
   */
  startAhead(localRepo: string | undefined): WarmContainer {
    const name = `chainlens-${this.label}-${Math.random().toString(36).slice(2, 8)}`;
    return this.adopt(WarmContainer.start(this.docker, { image: this.spec.image, runId: this.label, name }), localRepo);
  }

  /** `earlier` (started before the image was checked) used as startAhead's; one for another image is replaced. */
  adoptOrStart(earlier: WarmContainer | undefined, localRepo: string | undefined): WarmContainer {
    return earlier?.image === this.spec.image ? this.adopt(earlier, localRepo) : this.startAhead(localRepo);
  }

  private adopt(warm: WarmContainer, localRepo: string | undefined): WarmContainer {
    if (localRepo !== undefined)
      void this.placement.then((located) => {
        if (located === null) warm.stageRepository(localRepo, this.spec.baseCommit);
      });
    return warm;
  }
}
