// What `chainlens checkout` leaves behind, pinned as a whole so that making it faster cannot change
// it: the repository (every ref, commit, tree, reflog entry, the index and the files of .git), the
// run state in the data directory and what the command prints. git's dates are fixed, so commit
// ids are the same on every run; run ids (made from the clock) are replaced by <run>, times by <t>.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { runCli } from '../../helpers/cli';
import { testDataDir } from '../../helpers/dataDir';
import { DEMO_CHAIN, ROOT, demoRepo } from '../../helpers/demoRepo';

const DATE = '2024-05-06T07:08:09Z';
/** The demo chain's base commit. */
const BASE = '5a6d67e1afa108d6bf16b9fbc85540ffab4f89e6';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trimEnd();
}

/** Every file and directory under `root` (sorted), with a file's content when `content` says so. */
function listing(root: string, content: (path: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const key = relative(root, path);
      if (lstatSync(path).isDirectory()) {
        out.push(`${key}/`);
        walk(path);
      } else out.push(content(key) ? `${key}: ${readFileSync(path, 'utf8')}` : key);
    }
  };
  walk(root);
  return out;
}

/**
 * The state of the work tree `dir` and of its run, with the run id and clock times normalized.
 * `renameCommits`: commits whose message holds the run id (so whose id changes run to run) are
 * named <commit N> in the order git lists them; the base's history keeps its ids.
 */
function describe(dir: string, runId: string, renameCommits: boolean): string {
  const renamed = renameCommits ? git(dir, 'rev-list', '--topo-order', '--all', '--not', BASE).split('\n') : [];
  const rename = (text: string) => renamed.reduce((t, sha, i) => t.replaceAll(sha, `<commit ${i + 1}>`), text);
  const refs = git(dir, 'for-each-ref', '--format=%(refname) %(objectname) tree %(tree) parent %(parent)');
  const commits = git(dir, 'log', '--all', '--topo-order', '--format=%H %T %P%n%an <%ae> %ad%n%cn <%ce> %cd%n%B--');
  const reflogs = ['HEAD', `chainlens/${runId}`].map(
    (r) => `${r}:\n${git(dir, 'reflog', 'show', '--format=%H %gs', r)}`,
  );
  const loose = /^objects\/([0-9a-f]{2})\/([0-9a-f]{38})$/;
  // File names and contents as git makes them, except what git's version decides (the templates'
  // text, a pack's name): the objects are listed on their own.
  const entries = listing(join(dir, '.git'), (p) => /^(HEAD|config|refs\/.*)$/.test(p)).map((p) =>
    p.replace(/^objects\/pack\/pack-[0-9a-f]+\./, 'objects/pack/pack-<hash>.'),
  );
  const gitDir = entries.filter((p) => !p.startsWith('hooks/') && p !== 'index' && !/^objects\/[0-9a-f]{2}\//.test(p));
  const looseObjects = entries
    .filter((p) => loose.test(p))
    .map((p) => `loose ${rename(p.replace(loose, '$1$2'))}`)
    .sort();
  const objects = rename(git(dir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)'))
    .split('\n')
    .sort();
  const index = git(dir, 'ls-files', '--stage');
  const status = git(dir, 'status', '--porcelain=v1', '--untracked-files=all', '--ignored');
  const pointer = readFileSync(join(dir, '.git', 'chainlens', 'state'), 'utf8').trim();
  const stateDir = join(testDataDir(), 'worktrees', pointer);
  const state = listing(stateDir, (p) => p.endsWith('.json') || p === 'current').filter((p) => !/^lock/.test(p));
  const text = [
    refs,
    commits,
    ...reflogs,
    gitDir.join('\n'),
    looseObjects.join('\n'),
    objects.join('\n'),
    index,
    `status: ${status}`,
    state.join('\n'),
  ].join('\n==\n');
  return rename(text)
    .replaceAll(runId, '<run>')
    .replaceAll(dir, '<dir>')
    .replaceAll(testDataDir(), '<data>')
    .replaceAll(pointer, '<state>')
    .replaceAll(demoRepo(), '<repo>')
    .replaceAll(ROOT, '<root>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<t>')
    .replace(/"elapsedMs": \d+/g, '"elapsedMs": <n>');
}

/**
 * Runs `chainlens checkout` of the demo chain with `args` into a new directory under fixed git
 * dates and a git configuration of the test's own (`identity`: the person's user.name/email, or
 * none), and describes what it left.
 */
async function checkout(args: string[], identity: string | null, renameCommits: boolean): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-checkout-result-'));
  const dir = join(root, 'work');
  const globalConfig = join(root, 'gitconfig');
  writeFileSync(globalConfig, identity ? `[user]\n\tname = ${identity}\n\temail = ${identity}@example.com\n` : '');
  const env = {
    GIT_AUTHOR_DATE: DATE,
    GIT_COMMITTER_DATE: DATE,
    GIT_CONFIG_GLOBAL: globalConfig,
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const r = await runCli(['checkout', DEMO_CHAIN, '--repo', demoRepo(), '--dir', dir, ...args]);
    assert.equal(r.code, 0, r.stderr);
    const runId = /^run +(\S+)/m.exec(r.stdout)![1];
    const printed = `stdout:\n${r.stdout}stderr:\n${r.stderr}`
      .replaceAll(runId, '<run>')
      .replaceAll(dir, '<dir>')
      .replaceAll(demoRepo(), '<repo>')
      // The current step's time so far: 0s, unless the machine is slow.
      .replace(/ \d+s$/gm, ' <n>s');
    return `${describe(dir, runId, renameCommits)}\n==\n${printed}`;
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(root, { recursive: true, force: true });
  }
}

/** The expected description, from test/fixtures/checkout/ (CHAINLENS_WRITE_FIXTURES=1 writes it). */
function expectSame(name: string, actual: string): void {
  const file = join(ROOT, 'test/fixtures/checkout', `${name}.txt`);
  if (process.env.CHAINLENS_WRITE_FIXTURES === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
  }
  assert.equal(actual, readFileSync(file, 'utf8'));
}

test('checkout --mode oracle --step 3 of the demo: the Oracle state as commits of ChainLens, ids fixed by the dates', async () => {
  expectSame('oracle-step-3', await checkout(['--mode', 'oracle', '--step', '3'], null, false));
});

test('checkout --mode seq --authors gold,gold,human of the demo: gold steps committed by the person', async () => {
  expectSame('seq-gold-gold-human', await checkout(['--mode', 'seq', '--authors', 'gold,gold,human'], 'Pat', true));
});

test('checkout --mode seq --authors gold,human,human without a git identity: ChainLens commits as itself', async () => {
  expectSame('seq-gold-no-identity', await checkout(['--mode', 'seq', '--authors', 'gold,human,human'], null, true));
});
