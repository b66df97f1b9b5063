// Benchmark integrity: a chain checked out from a source repository that already HOLDS the fixes
// (a mined chain's upstream: "Fix #101 ..." commits on main, tags, another branch) must give the
// solver nothing of them. A scripted agent attached over MCP asks where to work, then searches
// that work tree and its .git with a shell (git log --all, rev-list, fsck --unreachable, cat-file
// of every object and of the future commits, every file in clear text) for gold lines, hidden
// test names, F2P ids, future commit subjects and the source's path, and finds none; meanwhile
// `status` works, because the run's state (gold included) is in the data directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, makeTinyChain, type TinyChain } from '../../helpers/tinyChain';
import { runCli } from '../../helpers/cli';
import { startMcpAgent } from '../../helpers/mcpAgent';
import { exploreAsSolver, leaked, readableObjects, unreachableObjects } from '../../helpers/solverShell';

interface Future {
  subjects: string[];
  shas: string[];
}

/** The upstream moves on past base: each step's fix (and its tests) as a commit on main, tagged; plus a branch. */
function addFutureHistory(c: TinyChain): Future {
  const subjects: string[] = [];
  c.raw.bug_fixes.forEach((fix, i) => {
    for (const patch of [fix.test_patch, fix.patch]) {
      const file = join(c.root, `future-${i}.diff`);
      writeFileSync(file, patch);
      git(c.repo, 'apply', file);
    }
    const subject = `Fix #10${i + 1}: upstream fix for ${fix.swebench_instance_id} with its regression test`;
    git(c.repo, 'add', '-A');
    git(c.repo, 'commit', '-q', '-m', subject);
    git(c.repo, 'tag', `v0.${i + 1}.0`);
    subjects.push(subject);
  });
  git(c.repo, 'checkout', '-q', '-b', 'release/next');
  writeFileSync(join(c.repo, 'NEXT.md'), 'Unreleased: the next batch of future fixes\n');
  git(c.repo, 'add', '-A');
  git(c.repo, 'commit', '-q', '-m', 'Prepare the next release after the future fixes');
  subjects.push('Prepare the next release after the future fixes');
  git(c.repo, 'checkout', '-q', 'main');
  const shas = git(c.repo, 'rev-list', '--all', '--not', c.baseCommit).trim().split('\n');
  return { subjects, shas };
}

/** Strings only the answers hold: gold/test patch lines, FAIL_TO_PASS ids, of steps from `from` on. */
function answersOf(c: TinyChain, from: number, visible: string): string[] {
  const out = new Set<string>();
  c.raw.bug_fixes.slice(from - 1).forEach((raw) => {
    const fix = raw as typeof raw & { FAIL_TO_PASS: string | string[] };
    for (const patch of [fix.patch, fix.test_patch])
      for (const line of patch.split('\n')) {
        const body = line.slice(1).trim();
        if (/^[+-][^+-]/.test(line) && body.length >= 10) out.add(body);
      }
    const f2p = typeof fix.FAIL_TO_PASS === 'string' ? (JSON.parse(fix.FAIL_TO_PASS) as string[]) : fix.FAIL_TO_PASS;
    for (const id of f2p) out.add(id);
  });
  return [...out].filter((s) => !visible.includes(s));
}

/** What anyone may see: the base tree and the problem statements. */
function baseText(c: TinyChain): string {
  const files = git(c.repo, 'ls-tree', '-r', '--name-only', c.baseCommit).trim().split('\n');
  return [
    ...files.map((f) => git(c.repo, 'show', `${c.baseCommit}:${f}`)),
    ...c.raw.bug_fixes.map((b) => (b as { problem_statement?: string }).problem_statement ?? ''),
  ].join('\n');
}

function assertNothingToFind(dir: string, secrets: string[], future: Future, also: string[], when: string): void {
  const transcript = exploreAsSolver(dir);
  assert.ok(transcript.includes('calc/ops.py'), `${when}: the search did read the repository`);
  assert.deepEqual(leaked(transcript, [...secrets, ...future.subjects, ...future.shas, ...also]), [], when);
  assert.deepEqual(readableObjects(dir, future.shas), [], `${when}: future commits readable with cat-file`);
  assert.deepEqual(unreachableObjects(dir), [], `${when}: unreachable objects`);
}

test('a solver with a shell finds no answers and no future history in its work tree (Seq and Oracle, path and URL sources), while status still works', async () => {
  const c = makeTinyChain();
  try {
    const future = addFutureHistory(c);
    const visible = baseText(c);
    const dir = join(c.root, 'work');
    const r = await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    // Only the base commit's history (plus ChainLens's own branch at it).
    assert.deepEqual(
      git(dir, 'rev-list', '--all').trim().split('\n').sort(),
      git(c.repo, 'rev-list', c.baseCommit).trim().split('\n').sort(),
    );

    const agent = await startMcpAgent(dir);
    try {
      const view = JSON.parse((await agent.call('get_current_step')).text);
      assert.equal(view.repository, dir);
      const everyAnswer = answersOf(c, 1, visible);
      assert.ok(everyAnswer.length >= 10, `only ${everyAnswer.length} distinctive answer strings`);
      assertNothingToFind(view.repository, everyAnswer, future, [c.repo], 'Seq step 1');

      // The agent fixes step 1 its own way and submits; in Seq, step 2 starts from that, so still no gold at all.
      const ops = join(dir, 'calc/ops.py');
      writeFileSync(
        ops,
        readFileSync(ops, 'utf8').replace(
          'return a / b',
          'if not b:\n        raise ArithmeticError("nothing")\n    return a / b',
        ),
      );
      const submitted = await agent.call('submit_step', { step: 1 });
      assert.equal(submitted.isError, false, submitted.text);
      assertNothingToFind(dir, everyAnswer, future, [c.repo], 'Seq step 2');
      assert.deepEqual(leaked(agent.said.join('\n'), everyAnswer), [], 'tool answers');
    } finally {
      await agent.close();
    }

    // The run goes on from the data directory, which does hold the answers.
    const s = await runCli(['status', '--dir', dir, '--json']);
    assert.equal(s.code, 0, s.stderr);
    const status = JSON.parse(s.stdout);
    assert.equal(status.run.currentStep, 2);
    const snapshot = readFileSync(join(status.stateDir, 'runs', `${status.run.id}.chain.json`), 'utf8');
    assert.ok(
      snapshot.includes(JSON.stringify(c.raw.bug_fixes[1].patch).slice(1, 60)),
      'the chain snapshot keeps gold',
    );

    // Oracle at step 3: gold of steps 1-2 is the solver's by design, nothing of step 3 or later history.
    const oracle = join(c.root, 'oracle');
    assert.equal(
      (await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', oracle, '--mode', 'oracle', '--step', '3']))
        .code,
      0,
    );
    const oracleVisible = visible + c.raw.bug_fixes.slice(0, 2).map((b) => b.patch + b.test_patch);
    assertNothingToFind(oracle, answersOf(c, 3, oracleVisible), future, [c.repo], 'Oracle step 3');

    // A URL source goes through the mirror cache (full history there, by design): the work tree still gets none.
    const cache = mkdtempSync(join(tmpdir(), 'chainlens-integrity-cache-'));
    process.env.CHAINLENS_CACHE = cache;
    try {
      const viaUrl = join(c.root, 'via-url');
      const u = await runCli(['checkout', c.chainFile, '--repo', `file://${c.repo}`, '--dir', viaUrl]);
      assert.equal(u.code, 0, u.stderr);
      assertNothingToFind(viaUrl, answersOf(c, 1, visible), future, [c.repo, cache], 'URL source');
    } finally {
      delete process.env.CHAINLENS_CACHE;
    }
  } finally {
    c.cleanup();
  }
});
