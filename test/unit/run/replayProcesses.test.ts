// What a replayed gold step costs in git processes (issue 39, item 2): `git apply` to the work
// tree and index at once (counting the patch as it applies), `git commit`, and the refs in one
// `update-ref`: three, as the raw `git apply` + `git add -A` + `git commit` it stands for. Before,
// every step also ran `git add -A` and `git diff --numstat`. The recorded sizes stay git's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { DEMO_CHAIN, demoRepo } from '../../helpers/demoRepo';

test('replay of the demo with gold: three git processes per step, and each step sized as git diff --numstat sizes it', async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-replay-processes-'));
  const trace = join(root, 'trace');
  const dir = join(root, 'work');
  const saved = { trace: process.env.GIT_TRACE, cache: process.env.CHAINLENS_CACHE };
  const repo = demoRepo();
  process.env.CHAINLENS_CACHE = join(root, 'cache');
  process.env.GIT_TRACE = trace;
  let r;
  try {
    r = await runCli(['replay', DEMO_CHAIN, '--repo', repo, '--dir', dir, '--mode', 'seq', '--predictions', 'gold']);
  } finally {
    for (const [k, v] of [
      ['GIT_TRACE', saved.trace],
      ['CHAINLENS_CACHE', saved.cache],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  try {
    assert.equal(r.code, 0, r.stderr);
    // Top-level git processes only: the ones git itself starts (maintenance after a commit) are
    // the same on the raw side.
    const commands = readFileSync(trace, 'utf8')
      .split('\n')
      .flatMap((l) => /trace: built-in: git (\S+)/.exec(l)?.[1] ?? [])
      .filter((c) => c !== 'maintenance');
    const count = (name: string) => commands.filter((c) => c === name).length;
    assert.equal(count('apply'), 3, commands.join(' '));
    assert.equal(count('commit'), 3);
    assert.equal(count('add'), 0, 'no git add -A: the patch is staged as it is applied');
    assert.equal(count('diff'), 0, 'no git diff --numstat: the patch is counted as it is applied');
    assert.equal(count('update-ref'), 4, "one per step, and the first step's start");
    // The sizes recorded are what git diff --numstat of each step's commits says.
    const status = r.stdout;
    const log = execFileSync('git', ['log', '--format=%H', '--reverse', 'HEAD', '--not', 'refs/chainlens/base'], {
      cwd: dir,
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
    for (const sha of log) {
      const numstat = execFileSync('git', ['diff', '--numstat', `${sha}^`, sha], { cwd: dir, encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((l) => l.split('\t').map(Number));
      const plus = numstat.reduce((a, [i]) => a + i, 0);
      const minus = numstat.reduce((a, [, d]) => a + d, 0);
      assert.match(status, new RegExp(`${numstat.length} file(s)? \\+${plus} -${minus}`));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
