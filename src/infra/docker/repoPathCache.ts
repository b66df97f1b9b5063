// The probe's answers on disk (docs/reference/containers.md, "Finding the repository in an
// image"). An image id names an image's content, so where that image keeps the repository of a
// given base commit never changes: the answer is kept per image id and commit, and a later
// process (every `chainlens eval` is one) skips the probe container.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files';
import { dataRoot } from '../run/stateDir';

/** Where an image holds the repository of a base commit. */
export interface RepoInImage {
  readonly path: string;
  /** false: HEAD is a later commit whose history holds the base, with a clean work tree; evaluation resets to the base. */
  readonly headIsBase: boolean;
}

/** Bumped whenever the probe's rules change, so answers found under older rules are asked again. */
const PROBE_RULES = 2;

interface CacheFile {
  readonly rules: number;
  /** base commit (lower case) -> the answer; null = the image does not hold it. */
  readonly answers: Record<string, RepoInImage | null>;
}

function fileOf(imageId: string): string {
  return join(
    dataRoot(),
    'cache',
    'repo-in-image',
    `${imageId.replace(/^sha256:/, '').replace(/[^a-f0-9]/gi, '')}.json`,
  );
}

function read(imageId: string): CacheFile | null {
  try {
    const parsed = JSON.parse(readFileSync(fileOf(imageId), 'utf8')) as CacheFile;
    return parsed.rules === PROBE_RULES && typeof parsed.answers === 'object' && parsed.answers ? parsed : null;
  } catch {
    // Missing, unreadable or torn by hand: the probe runs again and the file is rewritten.
    return null;
  }
}

/** The cached answer for `baseCommit` in image `imageId`, or undefined when none is known. */
export function cachedRepoInImage(imageId: string, baseCommit: string): RepoInImage | null | undefined {
  const answers = read(imageId)?.answers;
  if (!answers || !Object.prototype.hasOwnProperty.call(answers, baseCommit)) return undefined;
  const a = answers[baseCommit];
  if (a === null) return null;
  return typeof a?.path === 'string' && a.path.startsWith('/')
    ? { path: a.path, headIsBase: a.headIsBase !== false }
    : undefined;
}

/** Records an answer (atomically: a reader sees the old file or the new one). A cache that cannot be written is no error. */
export function rememberRepoInImage(imageId: string, baseCommit: string, answer: RepoInImage | null): void {
  const answers = { ...read(imageId)?.answers, [baseCommit]: answer };
  try {
    writeFileAtomic(fileOf(imageId), JSON.stringify({ rules: PROBE_RULES, answers } satisfies CacheFile) + '\n');
  } catch {
    // A read-only data directory costs one probe per process, nothing more.
  }
}
