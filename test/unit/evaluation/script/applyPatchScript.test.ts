// Runs the generated script with the host's real bash, git and patch on a scratch repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APPLY_PATCH_FAILED, APPLY_PATCH_PASS, applyPatchScript } from '../../../../src/core/evaluation/script';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-apply-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@l', ...args], { cwd: dir });
  git('init', '-q');
  writeFileSync(join(dir, 'f.txt'), lines(20));
  git('add', '-A');
  git('commit', '-qm', 'base');
  return dir;
}

function apply(dir: string, patch: string): { code: number | null; out: string } {
  const patchPath = join(dir, '..', `${dir.split('/').pop()}.diff`);
  writeFileSync(patchPath, patch);
  const scriptPath = `${patchPath}.sh`;
  writeFileSync(scriptPath, applyPatchScript(patchPath, dir));
  const r = spawnSync('bash', [scriptPath], { encoding: 'utf8', env: { ...process.env, HOME: dir } });
  return { code: r.status, out: r.stdout + r.stderr };
}

const hunk = (before: string[], del: string, add: string, after: string[], start: number) =>
  `--- a/f.txt\n+++ b/f.txt\n@@ -${start},7 +${start},7 @@\n${before.map((l) => ` ${l}\n`).join('')}-${del}\n+${add}\n${after.map((l) => ` ${l}\n`).join('')}`;

test('the fallback chain tries the harness commands in order', () => {
  const script = applyPatchScript('/chainlens/state.diff', '/testbed');
  const order = [
    'git apply --verbose',
    'git apply --verbose --3way',
    'git apply --verbose --reject',
    'patch --batch --forward --fuzz=5 -p1 -i',
  ].map((c) => script.indexOf(`'${c}'`));
  assert.ok(
    order.every((i, k) => i > 0 && (k === 0 || i > order[k - 1])),
    script,
  );
});

test('a clean patch applies with the first command', () => {
  const dir = repo();
  const r = apply(
    dir,
    hunk(['line 7', 'line 8', 'line 9'], 'line 10', 'LINE 10', ['line 11', 'line 12', 'line 13'], 7),
  );
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, new RegExp(`^${APPLY_PATCH_PASS}$`, 'm'));
  assert.doesNotMatch(r.out, /Failed to apply/);
  assert.match(readFileSync(join(dir, 'f.txt'), 'utf8'), /^LINE 10$/m);
});

test('a patch whose context drifted fails git apply and lands through patch --fuzz', () => {
  const dir = repo();
  const r = apply(
    dir,
    hunk(['line 7 (edited)', 'line 8', 'line 9'], 'line 10', 'LINE 10', ['line 11', 'line 12', 'line 13'], 7),
  );
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /Failed to apply patch to container: git apply --verbose\n/);
  assert.match(r.out, /Failed to apply patch to container: git apply --verbose --reject/);
  assert.match(r.out, new RegExp(`^${APPLY_PATCH_PASS}$`, 'm'));
  assert.match(readFileSync(join(dir, 'f.txt'), 'utf8'), /^line 9\nLINE 10\nline 11$/m);
});

test('a patch that cannot apply prints the failure marker and exits 1', () => {
  const dir = repo();
  const r = apply(dir, hunk(['alpha', 'beta', 'gamma'], 'delta', 'DELTA', ['epsilon', 'zeta', 'eta'], 7));
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, new RegExp(`^${APPLY_PATCH_FAILED}$`, 'm'));
  assert.doesNotMatch(r.out, new RegExp(`^${APPLY_PATCH_PASS}`, 'm'));
});

test('a patch that is already in the tree counts as applied, as in the harness', () => {
  const dir = repo();
  const patch = hunk(['line 7', 'line 8', 'line 9'], 'line 10', 'LINE 10', ['line 11', 'line 12', 'line 13'], 7);
  assert.equal(apply(dir, patch).code, 0);
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@l', 'commit', '-qam', 'applied'], { cwd: dir });
  const again = apply(dir, patch);
  assert.equal(again.code, 0, again.out);
  assert.match(again.out, /^>>>>> Applied Patch: verified already applied$/m);
});
