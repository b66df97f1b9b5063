// Analyse a patch against a gold patch over a repository's files at a base revision (what
// `chainlens analyze` prints): both diffs read and checked, pre-images read with one
// `git cat-file --batch`, then the analysis engine (src/core/analysis).
import { availableParallelism } from 'node:os';
import { analyzeStep } from '../../core/analysis/analyzeStep';
import { languageOf } from '../../core/analysis/syntax';
import type { SymbolIndex } from '../../core/analysis/symbols';
import { parsePatch } from '../../core/patch/parse';
import { isPathSafe } from '../../core/patch/paths';
import type { Patch } from '../../core/patch/types';
import { OptionError, UserError } from '../../core/util/errors';
import type { StepAnalysis } from '../../protocol/analysis';
import { readUserFile } from '../../infra/files';
import { readBlobs } from '../../infra/git/blobReader';
import { GitCommandError, runGit } from '../../infra/git/exec';
import { FilePairPool } from './filePairPool';

export interface PatchAnalysisRequest {
  /** The step's patch file and the gold patch file (unified diffs). */
  patchPath: string;
  goldPath: string;
  /** A git repository holding the files both patches apply to. */
  repo: string;
  /** The revision the patches apply to (a person's input: checked before git sees it). */
  base: string;
  symbols: SymbolIndex;
  /**
   * Threads to analyse the files on. By default one per core (at most 4), and only for a pair
   * with PARALLEL_MIN_CHARS of source or more: for less, starting a worker costs about what it
   * would save.
   */
  threads?: number;
}

/** About a tenth of a second of parsing: below it, a worker's start-up is not won back. */
export const PARALLEL_MIN_CHARS = 400_000;

/** The commit `rev` names in `repo`; a clear error naming --repo or --base otherwise. */
async function resolveBase(repo: string, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw new OptionError('base', `invalid revision '${rev}'`);
  try {
    return (await runGit(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { cwd: repo })).trim();
  } catch (e) {
    if (!(e instanceof GitCommandError) || e.exitCode === null)
      throw new OptionError('repo', `${repo}: cannot run git there (${(e as Error).message})`, 'git');
    if (/not a git repository/i.test(e.stderr)) throw new OptionError('repo', `${repo}: not a git repository`, 'git');
    throw new OptionError('base', `'${rev}' is not a commit in ${repo}`, 'git');
  }
}

/** A unified diff from a file; an empty file is an empty patch, any other text must be a diff. */
function readDiff(path: string, flag: string): Patch {
  const text = readUserFile(path, flag);
  const patch = parsePatch(text, path);
  if (patch.files.length === 0 && text.trim() !== '')
    throw new UserError(`${flag} ${path} is not a unified diff (no "diff --git" or "---/+++" file header)`);
  return patch;
}

export async function analyzePatches(
  request: PatchAnalysisRequest,
): Promise<{ analysis: StepAnalysis; baseCommit: string }> {
  const stepPatch = readDiff(request.patchPath, '--patch');
  const goldPatch = readDiff(request.goldPath, '--gold');
  const baseCommit = await resolveBase(request.repo, request.base);
  const named = [...stepPatch.files, ...goldPatch.files]
    .flatMap((f) => [f.oldPath, f.newPath])
    .filter((p): p is string => p !== null);
  const unsafe = named.filter((p) => !isPathSafe(p));
  if (unsafe.length > 0)
    throw new UserError(`the patches name unsafe paths (absolute, '..' or inside .git): ${unsafe.join(', ')}`);
  const blobs = await readBlobs(request.repo, baseCommit, [...new Set(named)]);
  let source = 0;
  for (const [path, text] of blobs) if (languageOf(path) && text) source += text.length;
  const threads = request.threads ?? (source >= PARALLEL_MIN_CHARS ? Math.min(4, availableParallelism()) : 1);
  const analysis = await analyzeStep({
    stepPatch,
    goldPatch,
    readFile: async (p) => blobs.get(p),
    symbols: request.symbols,
    filePairs:
      threads > 1 ? new FilePairPool({ workers: threads - 1, preImages: blobs, symbols: request.symbols }) : undefined,
  });
  return { analysis, baseCommit };
}
