// What `chainlens eval` asks the engine while the rest of the command is still loading
// (docs/reference/containers.md, "Started ahead"): the ping, the image lookup and, when the image
// was named on the command line and is there, the first step's container. Only reads until then:
// nothing is pulled, and the command still fails before writing anything when the engine or the
// image is missing. This module is loaded on its own, before the command's other modules.
import type Docker from 'dockerode';
import { connectDocker } from './connect';
import { lookUpImage } from './images';
import { WarmContainer, type BundleContainerOptions } from './warmContainer';

export interface EngineAhead {
  /** The engine, pinged; rejects with connectDocker's error. */
  readonly docker: Promise<Docker>;
  /** The image's id, null when the engine lacks it (the command pulls it once its arguments are checked). */
  lookUp(image: string): Promise<string | null>;
  /** The container started ahead for the image named up front, if it was there. */
  readonly warm: Promise<WarmContainer | undefined>;
}

/**
 * Connects at once and looks `image` up (when given); if the engine has it, starts a container
 * for it with `container`'s options. The caller owns that container: it takes it for an
 * evaluation or discards it. No promise here rejects unhandled.
 */
export function askEngineAhead(image?: string, container?: Omit<BundleContainerOptions, 'image'>): EngineAhead {
  const docker = connectDocker();
  const lookups = new Map<string, Promise<string | null>>();
  const lookUp = (name: string) => {
    let found = lookups.get(name);
    if (!found) {
      found = docker.then((d) => lookUpImage(name, d));
      found.catch(() => lookups.delete(name));
      lookups.set(name, found);
    }
    return found;
  };
  const warm =
    image === undefined || container === undefined
      ? Promise.resolve(undefined)
      : lookUp(image).then(
          async (id) => (id === null ? undefined : WarmContainer.start(await docker, { ...container, image })),
          () => undefined,
        );
  docker.catch(() => undefined);
  return { docker, lookUp, warm };
}
