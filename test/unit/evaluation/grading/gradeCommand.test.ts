// `chainlens grade` end to end through the CLI entry point, on real corpus logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../../src/cli/main';
import { GradeResultSchema } from '../../../../src/protocol/grading';
import { CORPUS_DIR } from './corpusFixtures';
import { MULTILINGUAL_DIR } from './multilingualFixtures';
import { LOG_PARSER_NAMES } from '../../../../src/protocol/grading';

async function run(args: string[], cwd = CORPUS_DIR) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['grade', ...args], { out: (t) => out.push(t), err: (t) => err.push(t), cwd });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const dir = mkdtempSync(join(tmpdir(), 'chainlens-grade-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const POSTGRES = 'test_postgres_only (shelf.tests.BookModelTests.test_postgres_only)';
const COUNT = 'test_count (shelf.tests.BookModelTests.test_count)';

test('--json prints exactly log_ok, status_map, tests_status, resolution', async () => {
  const f2p = file('f2p.json', JSON.stringify([COUNT, POSTGRES]));
  const r = await run([
    '--log',
    'django-v5.log',
    '--profile',
    'swebench-v5',
    '--repo',
    'django/django',
    '--f2p',
    f2p,
    '--json',
  ]);
  assert.equal(r.code, 0, r.err);
  const parsed = JSON.parse(r.out);
  assert.deepEqual(Object.keys(parsed), ['log_ok', 'status_map', 'tests_status', 'resolution']);
  GradeResultSchema.strict().parse(parsed);
  assert.deepEqual(parsed.tests_status.FAIL_TO_PASS, { success: [COUNT], failure: [POSTGRES] });
  assert.equal(parsed.resolution, 'RESOLVED_PARTIAL');
  assert.equal(parsed.status_map[POSTGRES], 'SKIPPED');
});

test('--parser overrides --repo; the v4 profile grades the same log differently', async () => {
  const f2p = file('f2p-v4.json', JSON.stringify([COUNT, POSTGRES]));
  const r = await run([
    '--log',
    'django-v5.log',
    '--profile',
    'swebench-v4',
    '--repo',
    'psf/requests',
    '--parser',
    'django',
    '--f2p',
    f2p,
    '--json',
  ]);
  assert.equal(JSON.parse(r.out).resolution, 'RESOLVED_FULL');
});

test('F2P given as a JSON string holding an array (the Hugging Face form) is accepted', async () => {
  const f2p = file('f2p-hf.json', JSON.stringify(JSON.stringify([COUNT])));
  const r = await run([
    '--log',
    'django-v5.log',
    '--profile',
    'swebench-v5',
    '--parser',
    'django',
    '--f2p',
    f2p,
    '--json',
  ]);
  assert.deepEqual(JSON.parse(r.out).tests_status.FAIL_TO_PASS.success, [COUNT]);
});

test('without --json: a readable summary naming the reason a log is not usable', async () => {
  const r = await run(['--log', 'spoof-v5.log', '--profile', 'swebench-v5']);
  assert.equal(r.code, 0);
  assert.match(r.out, /log not usable: the test command exited 1 but the log reports no failed or errored test/);
  assert.match(r.out, /RESOLVED_NO/);
  const ok = await run(['--log', 'django-v5.log', '--profile', 'swebench-v5', '--repo', 'django/django']);
  assert.match(ok.out, /20 tests in the log: 12 PASSED, 4 FAILED, 2 SKIPPED, 2 ERROR/);
});

test('bad input: a UserError naming the file or flag, exit 1; usage problems (a bad flag value too) exit 2', async () => {
  const missing = await run(['--log', 'no-such.log', '--profile', 'swebench-v5']);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /--log .*no-such\.log: cannot read the file/);

  const badJson = await run(['--log', 'django-v5.log', '--profile', 'swebench-v5', '--f2p', file('bad.json', '[1,')]);
  assert.equal(badJson.code, 1);
  assert.match(badJson.err, /--f2p .*bad\.json: invalid JSON/);

  const notStrings = await run([
    '--log',
    'django-v5.log',
    '--profile',
    'swebench-v5',
    '--p2p',
    file('nums.json', '["a", 3]'),
  ]);
  assert.equal(notStrings.code, 1);
  assert.match(notStrings.err, /--p2p .*nums\.json: \$\[1\] must be a string test id, found number 3/);

  const notArray = await run([
    '--log',
    'django-v5.log',
    '--profile',
    'swebench-v5',
    '--f2p',
    file('obj.json', '{"a":1}'),
  ]);
  assert.match(notArray.err, /expected a JSON array of test ids at \$, found an object/);

  // A value the flag does not take is a usage error, like a missing flag.
  const parser = await run(['--log', 'django-v5.log', '--profile', 'swebench-v5', '--parser', 'nose']);
  assert.equal(parser.code, 2);
  assert.match(
    parser.err,
    /--parser: unknown parser 'nose' \(expected one of: pytest, .*gotest, .*parse_log_gotest, or list\)/,
  );

  const profile = await run(['--log', 'django-v5.log', '--profile', 'v5']);
  assert.equal(profile.code, 2);
  assert.match(profile.err, /--profile: unknown value 'v5'/);

  assert.equal((await run(['--profile', 'swebench-v5'])).code, 2);
  assert.equal((await run(['--log', 'django-v5.log'])).code, 2);
  assert.equal((await run(['--log', 'django-v5.log', '--profile', 'swebench-v5', '--bogus'])).code, 2);
});

const ML = join(MULTILINGUAL_DIR, 'corpus');

test('--repo picks the harness parser of a Go repository; a harness parser name works as --parser', async () => {
  const f2p = file('go-f2p.json', JSON.stringify(['TestScale/zero_factor', 'TestScale/double_width']));
  const byRepo = await run(
    ['--log', 'go-bug-v5.log', '--profile', 'swebench-v5', '--repo', 'gin-gonic/gin', '--f2p', f2p, '--json'],
    ML,
  );
  assert.equal(byRepo.code, 0, byRepo.err);
  const graded = JSON.parse(byRepo.out);
  assert.equal(graded.status_map['TestNeedsWindows'], 'SKIPPED');
  assert.deepEqual(graded.tests_status.FAIL_TO_PASS, {
    success: ['TestScale/zero_factor'],
    failure: ['TestScale/double_width'],
  });
  const byName = await run(
    ['--log', 'go-bug-v5.log', '--profile', 'swebench-v5', '--parser', 'parse_log_gotest', '--f2p', f2p, '--json'],
    ML,
  );
  assert.deepEqual(JSON.parse(byName.out), graded);
  const summary = await run(['--log', 'go-bug-v5.log', '--profile', 'swebench-v5', '--repo', 'gin-gonic/gin'], ML);
  assert.match(summary.out, /parser gotest, pass_and_fail/);
});

test('--parser list names every parser with the repositories the harness maps to it', async () => {
  const r = await run(['--parser', 'list']);
  assert.equal(r.code, 0);
  for (const name of LOG_PARSER_NAMES) assert.match(r.out, new RegExp(`^${name} `, 'm'));
  assert.match(r.out, /^gotest +caddyserver\/caddy, hashicorp\/terraform/m);
  assert.match(r.out, /^jekyll +jekyll\/jekyll \(needs --instance\)$/m);
});

test('an instance-dependent parser needs --instance (usage error without it) and reads the runner from it', async () => {
  const missing = await run(
    ['--log', 'minitest-bug-v5.log', '--profile', 'swebench-v5', '--repo', 'jekyll/jekyll'],
    ML,
  );
  assert.equal(missing.code, 2);
  assert.match(missing.err, /--parser jekyll picks its runner by instance id: give --instance <id>/);
  const known = await run(
    [
      '--log',
      'minitest-bug-v5.log',
      '--profile',
      'swebench-v5',
      '--repo',
      'jekyll/jekyll',
      '--instance',
      'jekyll__jekyll-9141',
      '--json',
    ],
    ML,
  );
  assert.equal(
    JSON.parse(known.out).status_map['TestInventory#test_: an inventory should remove what it holds'],
    'PASSED',
  );
  // An instance the harness has no runner for: the harness raises, so the log is not usable.
  const unknown = await run(
    [
      '--log',
      'minitest-bug-v5.log',
      '--profile',
      'swebench-v5',
      '--repo',
      'jekyll/jekyll',
      '--instance',
      'jekyll__jekyll-1',
    ],
    ML,
  );
  assert.equal(unknown.code, 0);
  assert.match(
    unknown.out,
    /log not usable: the jekyll parser of the harness fails on .*ValueError: Unknown instance id/,
  );
});
