// scripts/test.sh, the README's test command, on a level whose tests fail: it stops there, still
// prints its closing "N passed, N failed" line (naming the failed level) and exits non-zero.
// Run on a copy of the script in a folder of its own, with one passing and one failing test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

function project(tests: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-test-script-'));
  mkdirSync(join(dir, 'scripts'));
  cpSync(join(ROOT, 'scripts/test.sh'), join(dir, 'scripts/test.sh'));
  // The unit level provisions statsmodels first (already there: the script does nothing).
  cpSync(join(ROOT, 'scripts/provision-python.sh'), join(dir, 'scripts/provision-python.sh'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'test/unit'), { recursive: true });
  for (const [name, body] of Object.entries(tests)) writeFileSync(join(dir, 'test/unit', name), body);
  return dir;
}

function run(dir: string, ...levels: string[]) {
  // Without the runner's own NODE_TEST_CONTEXT, which would make the inner runner report to this one.
  const env: NodeJS.ProcessEnv = { ...process.env, CHAINLENS_DATA: '' };
  delete env.NODE_TEST_CONTEXT;
  return spawnSync('bash', [join(dir, 'scripts/test.sh'), ...levels], { encoding: 'utf8', env });
}

test('a failing level still ends with the closing line, naming it, and exit 1; nothing after it runs', () => {
  const dir = project({
    'a.test.ts': "import { test } from 'node:test';\ntest('passes', () => {});\n",
    'b.test.ts':
      "import { test } from 'node:test';\nimport assert from 'node:assert';\ntest('fails', () => assert.equal(1, 2));\n",
  });
  try {
    const r = run(dir, 'unit', 'lint');
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines[lines.length - 1], "chainlens: 1 passed, 1 failed, 0 skipped; level 'unit' failed");
    assert.doesNotMatch(r.stdout, /=== chainlens tests: lint ===/, 'the run stops at the failed level');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a level that passes ends with the plain closing line and exit 0; an unknown level is a usage error', () => {
  const dir = project({ 'a.test.ts': "import { test } from 'node:test';\ntest('passes', () => {});\n" });
  try {
    const r = run(dir, 'unit');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /chainlens: 1 passed, 0 failed, 0 skipped\n$/);
    const bad = run(dir, 'unit', 'integration');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /unknown test level 'integration'/);
    assert.doesNotMatch(bad.stdout, /=== chainlens tests: unit ===/, 'levels are checked before any runs');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
