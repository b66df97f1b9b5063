// The container runner's tar writer, checked by the system's tar (what Docker's extraction mirrors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarArchive } from '../../../../src/infra/docker/tar';

test('tar entries extract with their contents, modes and folders, including long and non-ASCII paths', () => {
  const long = `/chainlens/${'deep/'.repeat(25)}file.txt`;
  const tar = tarArchive([
    { path: '/chainlens/run.sh', content: '#!/bin/bash\necho hi\n', mode: 0o755 },
    { path: '/chainlens/état.diff', content: Buffer.from('x'.repeat(513)), mode: 0o644 },
    { path: long, content: 'deep', mode: 0o600 },
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-tar-'));
  writeFileSync(join(dir, 'a.tar'), tar);
  execFileSync('tar', ['-xf', 'a.tar'], { cwd: dir });
  assert.equal(readFileSync(join(dir, 'chainlens/run.sh'), 'utf8'), '#!/bin/bash\necho hi\n');
  assert.equal(statSync(join(dir, 'chainlens/run.sh')).mode & 0o777, 0o755);
  assert.equal(readFileSync(join(dir, 'chainlens/état.diff'), 'utf8').length, 513);
  assert.equal(readFileSync(join(dir, long), 'utf8'), 'deep');
});
