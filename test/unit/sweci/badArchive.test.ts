// A damaged or oversized repository archive (code.zip) of a SWE-CI task: refused with an error that
// names code.zip (the folder it was unpacked into is temporary and gone, so naming it would send a
// person nowhere), and nothing of it is left behind: the unpacked repository holds the task's
// target commit. Real zip archives (Python's zipfile) and real git; no Docker (the task's image
// is named, so its archive is never loaded, and the archive is refused before any container).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractCodeArchive } from '../../../src/infra/sweci/codeArchive';
import { initTask } from '../../../src/app/sweci/initTask';
import { buildTaskRepo } from '../../helpers/sweciTask';

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

/** Temporary folders of an init of `taskId` (initTask unpacks into one). */
const scratchOf = (taskId: string) => readdirSync(tmpdir()).filter((n) => n.startsWith(`chainlens-sweci-${taskId}-`));

test('a code.zip over the unpacked-size cap (a zip bomb) is refused naming it, and what it unpacked is removed', async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-sweci-bomb-'));
  try {
    const repo = join(root, 'calckit');
    buildTaskRepo(repo);
    const zip = join(root, 'code.zip');
    execFileSync('python3', ['-m', 'zipfile', '-c', zip, repo]);
    const into = join(root, 'out');
    await assert.rejects(
      extractCodeArchive('t', zip, into, 4096),
      (e: Error) =>
        e.message.includes(`the repository archive ${zip} unpacks to more than 4096 bytes`) &&
        !e.message.includes(into),
    );
    assert.equal(existsSync(into), false, 'the partly unpacked repository was left behind');
    // The same archive under the real cap unpacks as usual.
    assert.ok(existsSync(join(await extractCodeArchive('t', zip, into), '.git')));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('sweci init of a code.zip whose repository is damaged: the error names code.zip, not a temporary folder, and no temporary folder is left', async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-badzip-'));
  const taskId = `damaged-${process.pid}`;
  try {
    const repo = join(root, 'src-repo', 'calckit');
    const commits = buildTaskRepo(repo);
    // The commits are there, one tree they name is not: git fails reading the current state.
    const tree = git(repo, 'rev-parse', `${commits.c0}:src`);
    rmSync(join(repo, '.git', 'objects', tree.slice(0, 2), tree.slice(2)));
    const datasetDir = join(root, 'dataset');
    mkdirSync(join(datasetDir, 'metadata'), { recursive: true });
    writeFileSync(
      join(datasetDir, 'metadata', 'default.csv'),
      `task_id,current_sha,target_sha,test_gap,repo_name\n${taskId},${commits.c0},${commits.c4},4,calckit/calckit\n`,
    );
    const data = join(datasetDir, 'data', taskId);
    mkdirSync(data, { recursive: true });
    const zip = join(data, 'code.zip');
    execFileSync('python3', ['-m', 'zipfile', '-c', zip, repo]);
    writeFileSync(join(data, 'image.tar.gz'), '');
    const dir = join(root, 'work');
    await assert.rejects(
      initTask({ datasetDir, split: 'default', taskId, dir, image: 'chainlens-test/never-used:1' }),
      (e: Error & { kind?: string }) => {
        assert.equal(e.kind, 'input', e.message);
        assert.match(e.message, new RegExp(`the repository archive ${zip.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
        assert.ok(
          !e.message.includes(`chainlens-sweci-${taskId}-`),
          `the error names a temporary folder: ${e.message}`,
        );
        return true;
      },
    );
    assert.deepEqual(scratchOf(taskId), [], 'the unpacked repository was left in a temporary folder');
    assert.equal(existsSync(dir), false, 'the work tree was made');
  } finally {
    rmSync(root, { recursive: true, force: true });
    for (const name of scratchOf(taskId)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
});
