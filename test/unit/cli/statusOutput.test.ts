// `chainlens status` prints exactly this, text and --json, for a clean, dirty, mid-chain and
// finished run and for the git layouts it reads without asking git (a .git directory, packed
// refs, a detached HEAD, stashes) or leaves to git (a linked worktree's .git file, a
// subdirectory). Pinned because status answers from files where it can (startup time, issue 20):
// the answer must stay what git would have said. Paths, run ids, commit ids and durations vary
// per run and are replaced by placeholders.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { testDataDir } from '../../helpers/dataDir';
import { git, makeTinyChain, type TinyChain } from '../../helpers/tinyChain';

let tiny: TinyChain;
let dir: string;

before(async () => {
  tiny = makeTinyChain();
  dir = join(tiny.root, 'work');
  assert.equal((await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir])).code, 0);
});

after(() => tiny.cleanup());

/** status's output with what differs per run replaced: paths, ids, times. */
async function status(...args: string[]): Promise<string> {
  const r = await runCli(['status', ...args]);
  return `code ${r.code}\n${r.stdout}${r.stderr ? `stderr:\n${r.stderr}` : ''}`
    .replaceAll(realpathSync(tiny.root), '<root>')
    .replaceAll(tiny.root, '<root>')
    .replaceAll(testDataDir(), '<data>')
    .replace(/worktrees\/work-[0-9a-f]+/g, 'worktrees/work-<id>')
    .replace(/seq-\d{8}-\d{6}/g, 'seq-<id>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
    .replace(/"elapsedMs": \d+/g, '"elapsedMs": <ms>')
    .replace(/ \d+s$/gm, ' <s>')
    .replace(new RegExp(tiny.baseCommit, 'g'), '<base>')
    .replace(/\b[0-9a-f]{40}\b/g, '<commit>')
    .replace(/\(([0-9a-f]{10})\)/g, '(<short>)');
}

const header = (where: string, dirty = '') =>
  `code 0\nchain  tiny_calc_chain (tiny/calc, 3 steps)\nrun    seq-<id>  mode seq  ${where}\ndir    <root>/work${dirty}\n\n`;
const STATE = 'state  <data>/worktrees/work-<id>\n';

const STEP1_TABLE = `#   instance      author  status   patch  time
>1  tiny__calc-1  human   current         <s>
 2  tiny__calc-2  human   pending
 3  tiny__calc-3  human   pending
`;

const jsonSteps = (steps: { status: string; start: string; end: string; patch: string; elapsed: string }[]): string =>
  steps
    .map(
      (s, i) => `    {
      "order": ${i + 1},
      "instanceId": "tiny__calc-${i + 1}",
      "author": {
        "kind": "human"
      },
      "status": "${s.status}",
      "start": ${s.start},
      "end": ${s.end},
      "patch": ${s.patch},
      "elapsedMs": ${s.elapsed},
      "note": null
    }`,
    )
    .join(',\n');

const json = (currentStep: string, dirty: boolean, steps: string, stashes = '[]') => `code 0
{
  "dir": "<root>/work",
  "chain": {
    "id": "tiny_calc_chain",
    "repo": "tiny/calc",
    "format": "chainswe",
    "baseCommit": "<base>",
    "dockerImage": "chainlens/base:bookworm",
    "steps": 3,
    "file": "<root>/chain.json"
  },
  "run": {
    "id": "seq-<id>",
    "mode": "seq",
    "branch": "chainlens/seq-<id>",
    "repoSource": "<root>/upstream",
    "createdAt": "<time>",
    "currentStep": ${currentStep},
    "complete": ${currentStep === 'null'}
  },
  "uncommittedChanges": ${dirty},
  "steps": [
${steps}
  ],
  "stateDir": "<data>/worktrees/work-<id>",
  "stashes": ${stashes},
  "busy": null,
  "sweci": null
}
`;

const PENDING = { status: 'pending', start: 'null', end: 'null', patch: 'null', elapsed: 'null' };

test('a clean run at its first step, text and --json', async () => {
  assert.equal(await status('--dir', dir), header('step 1 of 3') + STEP1_TABLE + '\n' + STATE);
  assert.equal(
    await status('--dir', dir, '--json'),
    json(
      '1',
      false,
      jsonSteps([
        { status: 'current', start: '"<base>"', end: 'null', patch: 'null', elapsed: '<ms>' },
        PENDING,
        PENDING,
      ]),
    ),
  );
});

test('the same answer through packed refs, a detached HEAD, a symlink, a subdirectory', async () => {
  const clean = header('step 1 of 3') + STEP1_TABLE + '\n' + STATE;
  git(dir, 'pack-refs', '--all');
  assert.equal(await status('--dir', dir), clean);
  const link = join(tiny.root, 'link');
  symlinkSync(dir, link);
  assert.equal(await status('--dir', link), clean);
  assert.equal(await status('--dir', join(dir, 'calc')), clean);
  const branch = git(dir, 'symbolic-ref', 'HEAD').trim();
  git(dir, 'checkout', '-q', '--detach');
  assert.equal(await status('--dir', dir), clean);
  git(dir, 'checkout', '-q', branch.replace('refs/heads/', ''));
});

test('uncommitted changes: untracked, modified, staged, deleted; ignored files are not changes', async () => {
  const dirty = header('step 1 of 3', '  (uncommitted changes)') + STEP1_TABLE + '\n' + STATE;
  const clean = header('step 1 of 3') + STEP1_TABLE + '\n' + STATE;
  const steps = jsonSteps([
    { status: 'current', start: '"<base>"', end: 'null', patch: 'null', elapsed: '<ms>' },
    PENDING,
    PENDING,
  ]);
  mkdirSync(join(dir, 'deep', 'er'), { recursive: true });
  writeFileSync(join(dir, 'deep', 'er', 'new.txt'), 'new\n');
  assert.equal(await status('--dir', dir), dirty);
  assert.equal(await status('--dir', dir, '--json'), json('1', true, steps));
  git(dir, 'add', 'deep');
  assert.equal(await status('--dir', dir), dirty, 'staged');
  git(dir, 'rm', '-q', '-r', '--cached', 'deep');
  git(dir, 'clean', '-q', '-fd');
  assert.equal(await status('--dir', dir), clean);
  writeFileSync(join(dir, 'README.md'), '# calc, changed\n');
  assert.equal(await status('--dir', dir), dirty, 'modified');
  git(dir, 'checkout', '-q', '--', 'README.md');
  git(dir, 'rm', '-q', 'README.md');
  assert.equal(await status('--dir', dir), dirty, 'deleted');
  git(dir, 'reset', '-q', '--hard');
  writeFileSync(join(dir, '.git', 'info', 'exclude'), 'ignored.log\n');
  writeFileSync(join(dir, 'ignored.log'), 'noise\n');
  assert.equal(await status('--dir', dir), clean, 'ignored');
  git(dir, 'clean', '-q', '-fdX');
});

test('stashes ChainLens made are listed with how to restore them; the person’s own are not', async () => {
  const repo = join(tiny.root, 'own');
  git(tiny.root, 'clone', '-q', tiny.repo, repo);
  writeFileSync(join(repo, 'README.md'), '# mine, stashed by hand\n');
  git(repo, 'stash', 'push', '-q', '-m', 'my own stash');
  writeFileSync(join(repo, 'README.md'), '# my work\n');
  const out = await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', repo]);
  assert.equal(out.code, 0, out.stderr);
  const text = (await status('--dir', repo))
    .replaceAll('<root>/own', '<root>/work')
    .replace(/own-[0-9a-f]+/, 'work-<id>');
  assert.equal(
    text,
    header('step 1 of 3') +
      STEP1_TABLE +
      '\n' +
      STATE +
      'stash  stash@{0} (<short>): your uncommitted work from before run seq-<id> started; restore with: git stash apply stash@{0}\n',
  );
  const asJson = JSON.parse((await runCli(['status', '--dir', repo, '--json'])).stdout);
  assert.equal(asJson.stashes.length, 1);
  assert.match(asJson.stashes[0].ref, /^stash@\{0\}$/);
  assert.match(asJson.stashes[0].sha, /^[0-9a-f]{40}$/);
  assert.match(asJson.stashes[0].message, /^chainlens: uncommitted work before starting run seq-\d{8}-\d{6}$/);
});

test('a linked worktree (a .git file) and a folder outside git are answered as before', async () => {
  const linked = join(tiny.root, 'linked');
  git(dir, 'worktree', 'add', '-q', '--detach', linked);
  assert.equal(
    await status('--dir', linked),
    'code 1\nstderr:\nchainlens status: this directory has no ChainLens run (start one with `chainlens checkout`)\n',
  );
  git(dir, 'worktree', 'remove', '--force', linked);
  const outside = join(tiny.root, 'plain');
  mkdirSync(outside);
  assert.equal(
    await status('--dir', outside),
    'code 1\nstderr:\nchainlens status: <root>/plain is not a git work tree (check a chain out there with `chainlens checkout`)\n',
  );
});

test('mid-chain and finished, text and --json', async () => {
  assert.equal((await runCli(['submit', '--dir', dir, '--allow-empty'])).code, 0);
  writeFileSync(join(dir, 'calc', 'extra.py'), 'X = 1\n');
  assert.equal(
    await status('--dir', dir),
    header('step 2 of 3', '  (uncommitted changes)') +
      `#   instance      author  status     patch          time
 1  tiny__calc-1  human   submitted  0 files +0 -0  <s>
>2  tiny__calc-2  human   current                   <s>
 3  tiny__calc-3  human   pending
` +
      '\n' +
      STATE,
  );
  assert.equal((await runCli(['submit', '--dir', dir])).code, 0);
  assert.equal(
    await status('--dir', dir, '--json'),
    json(
      '3',
      false,
      jsonSteps([
        {
          status: 'submitted',
          start: '"<base>"',
          end: '"<base>"',
          patch: '{\n        "files": 0,\n        "insertions": 0,\n        "deletions": 0\n      }',
          elapsed: '<ms>',
        },
        {
          status: 'submitted',
          start: '"<base>"',
          end: '"<commit>"',
          patch: '{\n        "files": 1,\n        "insertions": 1,\n        "deletions": 0\n      }',
          elapsed: '<ms>',
        },
        { status: 'current', start: '"<commit>"', end: 'null', patch: 'null', elapsed: '<ms>' },
      ]),
    ),
  );
  assert.equal((await runCli(['submit', '--dir', dir, '--allow-empty'])).code, 0);
  assert.equal(
    await status('--dir', dir),
    header('complete') +
      `#   instance      author  status     patch          time
 1  tiny__calc-1  human   submitted  0 files +0 -0  <s>
 2  tiny__calc-2  human   submitted  1 file +1 -0   <s>
 3  tiny__calc-3  human   submitted  0 files +0 -0  <s>
` +
      '\n' +
      STATE,
  );
});
