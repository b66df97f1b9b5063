// `codethread report` on real runs (replayed, not evaluated): an agent's PR1 that swallows an
// error drifts from the human PR1; PR2 either keeps that function as it was or edits it with the
// drift still there. Unevaluated runs are left out of the rates, saying so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { DEMO_CHAIN } from '../../helpers/demoRepo';
import { demoRepoWithFixCommits } from '../../helpers/demoFixCommits';
import { codeThreadReport } from '../../../src/app/codethread/report';

const ID = 'chainlens-demo__invoicekit-101';
const TASK = `codethread.${ID}`;
const FILE = 'invoicekit/parse.py';
let repo: ReturnType<typeof demoRepoWithFixCommits>;
const work = mkdtempSync(join(tmpdir(), 'chainlens-codethread-report-'));
const tasks = join(work, 'tasks.jsonl');
const git = (cwd: string, args: string[], input?: string) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8', input });

/** `git diff` between two versions of parse.py, made in a scratch work tree of the repository. */
function diff(before: string, after: string): string {
  const scratch = join(work, `scratch-${Math.random().toString(36).slice(2)}`);
  git(repo.dir, ['worktree', 'add', '-q', '--detach', scratch, 'HEAD']);
  try {
    writeFileSync(join(scratch, FILE), before);
    git(scratch, ['commit', '-qam', 'before']);
    writeFileSync(join(scratch, FILE), after);
    return git(scratch, ['diff']);
  } finally {
    git(repo.dir, ['worktree', 'remove', '--force', scratch]);
  }
}

const SWALLOW = (text: string) =>
  text.replace(
    '        raise ParseError(f"not an amount: {text!r}")',
    '        return Money(Decimal(0), default_currency or "USD")',
  );

async function replayAA(name: string, pr2: (pr1: string, gold: string) => string): Promise<string> {
  // Instance 101 starts at the chain's base; its fix is the first fix commit.
  const base = git(repo.dir, ['show', `${repo.commits[0]}^:${FILE}`]);
  const pr0 = git(repo.dir, ['show', `refs/chainlens/codethread/${ID}:${FILE}`]);
  const gold = git(repo.dir, ['show', `${repo.commits[0]}:${FILE}`]);
  const pr1 = SWALLOW(base);
  assert.notEqual(pr1, base);
  const predictions = join(work, `${name}.jsonl`);
  writeFileSync(
    predictions,
    [
      { instance_id: `${ID}.implementation`, model_name_or_path: 'agent', model_patch: diff(pr0, pr1) },
      { instance_id: ID, model_name_or_path: 'agent', model_patch: diff(pr1, pr2(pr1, gold)) },
    ]
      .map((p) => JSON.stringify(p))
      .join('\n') + '\n',
  );
  const dir = join(work, name);
  const r = await runCli([
    'replay',
    tasks,
    '--chain-id',
    TASK,
    '--repo',
    repo.dir,
    '--dir',
    dir,
    '--mode',
    'seq',
    '--predictions',
    predictions,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return dir;
}

before(async () => {
  repo = demoRepoWithFixCommits();
  const r = await runCli(['codethread', 'build', DEMO_CHAIN, '--repo', repo.dir, '--out', tasks, '--instances', ID]);
  assert.equal(r.code, 0, r.stderr);
});
after(() => {
  repo.remove();
  rmSync(work, { recursive: true, force: true });
});

test('PR1 drift: kept when PR2 leaves the function, persisted when PR2 edits it and keeps the drift', async () => {
  const kept = await replayAA('kept', (pr1) =>
    pr1.replace(
      'def parse_percent(text: str) -> Decimal:\n',
      'def parse_percent(text: str) -> Decimal:\n    text = text.strip()\n',
    ),
  );
  const persisted = await replayAA('persisted', (_pr1, gold) => SWALLOW(gold));
  const report = await codeThreadReport([kept, persisted]);
  const [aa] = report.drift;
  assert.equal(aa.condition, 'AA');
  assert.equal(aa.runs, 2);
  assert.equal(aa.drifted, 2);
  const fates = aa.symbols.map((s) => [s.file, s.symbol, s.fate]);
  assert.deepEqual(fates, [
    [FILE, 'parse_amount', 'kept'],
    [FILE, 'parse_amount', 'persisted'],
  ]);
  assert.ok(aa.symbols[0].labels.length > 0);
  // Never evaluated: no rates, each run left out with the reason.
  assert.deepEqual(
    report.excluded.map((e) => e.why),
    ['step 1 was not evaluated', 'step 1 was not evaluated'],
  );
});

test('PR1 drift repaired: PR2 restores the error the human PR1 raises', async () => {
  const repaired = await replayAA('repaired', (_pr1, gold) => gold);
  const report = await codeThreadReport([repaired]);
  assert.deepEqual(
    report.drift[0].symbols.map((s) => s.fate),
    ['repaired'],
  );
});

test('a work tree of a chain that is not a CodeThread task is refused, naming it', async () => {
  const dir = join(work, 'plain');
  const r = await runCli(['checkout', DEMO_CHAIN, '--repo', repo.dir, '--dir', dir]);
  assert.equal(r.code, 0, r.stderr);
  const out = await runCli(['codethread', 'report', dir]);
  assert.equal(out.code, 1);
  assert.match(out.stderr, /is not a CodeThread task/);
  assert.equal(readFileSync(join(dir, FILE), 'utf8').includes('raise NotImplementedError'), false);
});
