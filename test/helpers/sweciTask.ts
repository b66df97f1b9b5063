// A real SWE-CI task built from a real repository's history, laid out as SWE-CI's dataset is
// (metadata/<split>.csv, data/<task>/code.zip, data/<task>/image.tar.gz). The repository, calckit,
// gains one function per commit; one intermediate commit breaks `sub` while adding `div` (a
// regression a later commit repairs). Files come from test/fixtures/sweci/ (one folder per commit).
import './dataDir';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const FIXTURES = resolve(__dirname, '../fixtures/sweci/commits');
/** The image the task's archive holds: the project's base image under a tag this test owns. */
export const TASK_IMAGE = 'chainlens-test/sweci-calckit:1';
export const TASK_ID = 'calckit-1';

export interface SweciTaskFixture {
  root: string;
  datasetDir: string;
  /** The source repository (the programmer script copies its intermediate commits). */
  repo: string;
  /** Commit ids by fixture folder name: c0 (current) … c4 (target), plus broken (target with no passing test). */
  commits: Record<string, string>;
  remove(): void;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Calc Dev', '-c', 'user.email=dev@calckit', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z' },
  }).trim();
}

/** Builds the repository commit by commit: each fixture folder is the whole tree of one commit. */
export function buildTaskRepo(dir: string): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  const commits: Record<string, string> = {};
  for (const name of ['c0', 'c1', 'c2', 'c3', 'c4']) {
    for (const entry of readdirSync(dir))
      if (entry !== '.git') rmSync(join(dir, entry), { recursive: true, force: true });
    cpSync(join(FIXTURES, name), dir, { recursive: true });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', `calckit ${name}`);
    commits[name] = git(dir, 'rev-parse', 'HEAD');
  }
  // A side branch whose tests all fail: the oracle of the task that must be refused.
  git(dir, 'checkout', '-q', '-b', 'broken', commits.c4);
  writeFileSync(join(dir, 'src/calckit/ops.py'), 'raise ImportError("calckit is broken here")\n');
  git(dir, 'commit', '-q', '-am', 'calckit broken');
  commits.broken = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'checkout', '-q', 'main');
  return commits;
}

/**
 * `extraTasks`: more rows over the same repository (and a copy of the same image archive), as
 * [task id, current commit name, target commit name].
 */
export function buildTaskDataset(extraTasks: [string, string, string][] = []): SweciTaskFixture {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-sweci-'));
  const repo = join(root, 'src-repo', 'calckit');
  const commits = buildTaskRepo(repo);
  const datasetDir = join(root, 'dataset');
  mkdirSync(join(datasetDir, 'metadata'), { recursive: true });
  writeFileSync(
    join(datasetDir, 'metadata', 'default.csv'),
    'task_id,current_sha,target_sha,test_gap,repo_name\n' +
      `${TASK_ID},${commits.c0},${commits.c4},4,calckit/calckit\n` +
      `calckit-broken,${commits.c0},${commits.broken},4,calckit/calckit\n` +
      `calckit-badimage,${commits.c0},${commits.c4},4,calckit/calckit\n` +
      extraTasks.map(([id, from, to]) => `${id},${commits[from]},${commits[to]},0,calckit/calckit\n`).join(''),
  );
  for (const task of [TASK_ID, 'calckit-broken', 'calckit-badimage', ...extraTasks.map(([id]) => id)]) {
    const data = join(datasetDir, 'data', task);
    mkdirSync(data, { recursive: true });
    // Python's zipfile CLI wraps the repository in its folder (calckit/.git, calckit/src, …).
    execFileSync('python3', ['-m', 'zipfile', '-c', join(data, 'code.zip'), repo]);
  }
  execFileSync('docker', ['tag', 'chainlens/base:bookworm', TASK_IMAGE]);
  execFileSync('sh', [
    '-c',
    `docker save ${TASK_IMAGE} | gzip > "${join(datasetDir, 'data', TASK_ID, 'image.tar.gz')}"`,
  ]);
  for (const task of ['calckit-broken', ...extraTasks.map(([id]) => id)])
    cpSync(join(datasetDir, 'data', TASK_ID, 'image.tar.gz'), join(datasetDir, 'data', task, 'image.tar.gz'));
  // Not an image: gzip of plain text. The engine refuses it.
  execFileSync('sh', [
    '-c',
    `echo 'not a docker image' | gzip > "${join(datasetDir, 'data', 'calckit-badimage', 'image.tar.gz')}"`,
  ]);
  return {
    root,
    datasetDir,
    repo,
    commits,
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Removes the tag this test made (the base image it points at stays). */
export function removeTaskImage(): void {
  try {
    execFileSync('docker', ['rmi', TASK_IMAGE], { stdio: 'ignore' });
  } catch {
    // not there
  }
}

/**
 * Passing tests of a commit by an independent pytest run: the commit's files in a plain
 * `docker run` of the base image, pytest's own `-q` summary line ("N passed") read, no ChainLens code.
 */
export function independentPassingCount(repoDir: string, commit: string): number {
  const tmp = mkdtempSync(join(tmpdir(), 'chainlens-sweci-state-'));
  try {
    execFileSync('sh', ['-c', `git -C "${repoDir}" archive ${commit} | tar -x -C "${tmp}"`]);
    let out: string;
    try {
      out = execFileSync(
        'docker',
        [
          'run',
          '--rm',
          '-v',
          `${tmp}:/w`,
          '-w',
          '/w',
          '-e',
          'PYTHONPATH=src:.',
          'chainlens/base:bookworm',
          'python3',
          '-m',
          'pytest',
          'tests',
          '-q',
          '-p',
          'no:cacheprovider',
        ],
        { encoding: 'utf8' },
      );
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? '');
    }
    const m = /(\d+) passed/.exec(out);
    return m ? Number(m[1]) : 0;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
