import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { patchFileSets, testFilesPlan } from '../../../../src/core/evaluation/script';

const fixtures = join(__dirname, '../../../fixtures/evaluation');
const mixed = readFileSync(join(fixtures, 'mixed.diff'), 'utf8');
const lite: { instance_id: string; test_patch: string }[] = JSON.parse(
  readFileSync(join(fixtures, 'swebench_lite_test_patches.json'), 'utf8'),
);
const litePatch = (id: string) => lite.find((i) => i.instance_id === id)!.test_patch;

test('a real git diff is split into modified, added, deleted and renamed files', () => {
  assert.deepEqual(patchFileSets(mixed), {
    modified: ['pkg/mod.py', 'tests/blob.bin', 'tests/data file.py'],
    added: ['tests/conftest.py', 'tests/fixture.json'],
    deleted: ['tests/test_old.py'],
    renamed: [{ from: 'tests/test_renamed_src.py', to: 'tests/test_renamed_dst.py' }],
  });
});

test('a SWE-bench test patch that only edits existing files resets them and deletes nothing', () => {
  assert.deepEqual(testFilesPlan([litePatch('django__django-16255')]), {
    reset: ['tests/sitemaps_tests/test_http.py', 'tests/sitemaps_tests/urls/http.py'],
    remove: [],
  });
});

test('files a test patch creates (including rename targets) are deleted, files that exist at base are reset', () => {
  const plan = testFilesPlan([mixed]);
  assert.deepEqual(plan.reset.sort(), [
    'pkg/mod.py',
    'tests/blob.bin',
    'tests/data file.py',
    'tests/test_old.py',
    'tests/test_renamed_src.py',
  ]);
  assert.deepEqual(plan.remove.sort(), ['tests/conftest.py', 'tests/fixture.json', 'tests/test_renamed_dst.py']);
});

test('in a chain, the first test patch to touch a file decides whether it existed at base', () => {
  const addsConftest =
    'diff --git a/conftest.py b/conftest.py\nnew file mode 100644\n--- /dev/null\n+++ b/conftest.py\n@@ -0,0 +1 @@\n+x = 1\n';
  const editsConftest =
    'diff --git a/conftest.py b/conftest.py\n--- a/conftest.py\n+++ b/conftest.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n';
  assert.deepEqual(testFilesPlan([addsConftest, editsConftest]), { reset: [], remove: ['conftest.py'] });
  assert.deepEqual(testFilesPlan([editsConftest, addsConftest]), { reset: ['conftest.py'], remove: [] });
});

test('a malformed test patch is reported with its position in the chain', () => {
  const truncated = 'diff --git a/t.py b/t.py\n--- a/t.py\n+++ b/t.py\n@@ -1,3 +1,3 @@\n-a\n';
  assert.throws(() => testFilesPlan([mixed, truncated]), /test patch 2: patch line 4/);
});
