// What `chainlens eval` asks the engine while the rest of the command is still loading
// (docs/reference/containers.md, "Started ahead"): the ping, the image lookup and, when the image
// was named on the command line and is there, the first step's container. Only reads until then:
// nothing is pulled, and the command still fails before writing anything when the engine or the
// image is missing. This module is loaded on its own, before the command's other modules.
import type Docker from 'dockerode';
import { openDocker, type OpenedDocker } from './connect';
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
 *
 * The lookup and the container's creation go out with the ping, not after its answer: the
 * command's own modules load next, and a request waiting for an answer would wait for them too.
 * They fail as the ping does when no engine answers (the ping's error is the one shown), and a
 * creation for an image the engine lacks fails without pulling (the container is then dropped).
 */
export function askEngineAhead(image?: string, container?: Omit<BundleContainerOptions, 'image'>): EngineAhead {
  let opened: OpenedDocker;
  try {
    opened = openDocker();
  } catch (e) {
    const failed = Promise.reject(e);
    failed.catch(() => undefined);
    return { docker: failed, lookUp: () => failed, warm: Promise.resolve(undefined) };
  }
  const { client, reachable: docker } = opened;
  const lookups = new Map<string, Promise<string | null>>();
  const lookUp = (name: string) => {
    let found = lookups.get(name);
    if (!found) {
      found = lookUpImage(name, client);
      found.catch(() => lookups.delete(name));
      lookups.set(name, found);
    }
    return found;
  };
  let warm: Promise<WarmContainer | undefined> = Promise.resolve(undefined);
  if (image !== undefined && container !== undefined) {
    const found = lookUp(image);
    const started = WarmContainer.start(client, { ...container, image });
    warm = found.then(
      (id) => (id === null ? started.discard().then(() => undefined) : started),
      () => started.discard().then(() => undefined),
    );
  }
  docker.catch(() => undefined);
  return { docker, lookUp, warm };
}
