/**
 * Docker image references, by the grammar of the distribution project that the engine parses
 * them with (docs/reference/chain-validation.md): `[host[:port]/]path[:tag][@digest]`, path components of
 * lowercase letters and digits joined by `.`, `_`, `__` or dashes, at most 255 characters before
 * the tag. An image id (`sha256:<64 hex>`) is accepted too, as `docker run` takes one.
 */
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const HOST = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])`;
const DOMAIN = `${HOST}(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(${NAME})(?::${TAG})?(?:@${DIGEST})?$`);
const IMAGE_ID = /^sha256:[0-9a-f]{64}$/;

/** Why `value` cannot name a Docker image, or null when it can. */
export function imageReferenceProblem(value: string): string | null {
  if (IMAGE_ID.test(value)) return null;
  const m = REFERENCE.exec(value);
  if (!m) return `'${value}' is not a Docker image name (expected [registry/]name[:tag][@digest], lowercase name)`;
  if (m[1].length > 255) return `the image name is ${m[1].length} characters long; Docker allows 255`;
  return null;
}
