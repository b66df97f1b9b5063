// The container runner's tar writer, checked by the system's tar (what Docker's extraction mirrors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarArchive, tarEntriesOnly } from '../../../../src/infra/docker/tar';

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

test("tarEntriesOnly passes git archive's entries and drops its end, even cut into one-byte chunks", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-tar-'));
  execFileSync('git', ['init', '-q', '.'], { cwd: dir });
  writeFileSync(join(dir, 'a.txt'), 'hello\n');
  // Data that is itself zero blocks must not be taken for the end of the archive.
  writeFileSync(join(dir, 'zeros.bin'), Buffer.alloc(2048));
  writeFileSync(join(dir, `${'long-name-'.repeat(12)}.txt`), 'long\n');
  execFileSync('git', ['add', '.'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x'], { cwd: dir });
  const archive = execFileSync('git', ['archive', '--format=tar', '--prefix=r/', 'HEAD'], { cwd: dir });
  const filter = tarEntriesOnly();
  const out: Buffer[] = [];
  filter.on('data', (d: Buffer) => out.push(d));
  const ended = new Promise((r) => filter.on('end', r));
  for (let i = 0; i < archive.length; i += i < 4096 ? 1 : 777)
    filter.write(archive.subarray(i, i < 4096 ? i + 1 : i + 777));
  filter.end();
  await ended;
  const entries = Buffer.concat(out);
  assert.equal(entries.length % 512, 0);
  assert.ok(entries.length < archive.length, 'the end-of-archive blocks are gone');
  // Followed by another archive's entries and the end marker, one archive extracts both.
  const more = tarArchive([{ path: '/r/more.txt', content: 'more', mode: 0o644 }]);
  writeFileSync(join(dir, 'both.tar'), Buffer.concat([entries, more]));
  const listed = execFileSync('tar', ['-tf', 'both.tar'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
  assert.ok(
    listed.includes('r/a.txt') && listed.includes('r/zeros.bin') && listed.includes('r/more.txt'),
    listed.join(),
  );
  execFileSync('mkdir', ['x'], { cwd: dir });
  execFileSync('tar', ['-xf', '../both.tar'], { cwd: join(dir, 'x') });
  assert.deepEqual(readFileSync(join(dir, 'x/r/zeros.bin')), Buffer.alloc(2048));
  assert.equal(readFileSync(join(dir, `x/r/${'long-name-'.repeat(12)}.txt`), 'utf8'), 'long\n');
});
