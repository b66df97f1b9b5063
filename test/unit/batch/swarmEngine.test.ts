// The pure parts of `--engine swarm`: the service log's frame format, the tag of the image built
// with the repository, and the option's parsing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demuxFrames } from '../../../src/infra/docker/swarm/logFrames';
import { repoImageTag } from '../../../src/infra/docker/swarm/repoImage';
import { parseEngine } from '../../../src/app/batch/engine';
import { isUserError } from '../../../src/core/util/errors';

function frame(stream: number, text: string): Buffer {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

test('service log frames: stdout and stderr payloads in order, headers dropped', () => {
  const bytes = Buffer.concat([frame(1, '+ git apply\n'), frame(2, 'error: x\n'), frame(1, '>>>>> Applied Patch\n')]);
  assert.equal(Buffer.concat(demuxFrames(bytes)).toString(), '+ git apply\nerror: x\n>>>>> Applied Patch\n');
});

test('service log frames: a cut-off last frame keeps what arrived; bytes without a header are kept raw', () => {
  const cut = Buffer.concat([frame(1, 'one\n'), frame(1, 'two three\n')]).subarray(0, 12 + 8 + 3);
  assert.equal(Buffer.concat(demuxFrames(cut)).toString(), 'one\ntwo');
  assert.equal(Buffer.concat(demuxFrames(Buffer.from('raw tty log\n'))).toString(), 'raw tty log\n');
  assert.deepEqual(demuxFrames(Buffer.alloc(0)), []);
});

test('the image with the repository: a valid tag that changes with the image id and the base commit only', () => {
  const base = '5a6d67e1afa108d6bf16b9fbc85540ffab4f89e6';
  const tag = repoImageTag('registry.example:5000/Org/SWE_Image:v1', 'sha256:aaa', base);
  assert.match(tag, /^chainlens-repo\/swe_image:5a6d67e1afa1-[0-9a-f]{12}$/);
  assert.equal(repoImageTag('registry.example:5000/Org/SWE_Image:v1', 'sha256:aaa', base), tag);
  assert.notEqual(repoImageTag('registry.example:5000/Org/SWE_Image:v1', 'sha256:bbb', base), tag);
  assert.notEqual(repoImageTag('registry.example:5000/Org/SWE_Image:v1', 'sha256:aaa', 'f'.repeat(40)), tag);
  assert.match(repoImageTag('chainlens/base@sha256:abc', 'sha256:aaa', base), /^chainlens-repo\/base:/);
});

test('--engine: local by default, swarm, and anything else a usage error naming both', () => {
  assert.equal(parseEngine(undefined), 'local');
  assert.equal(parseEngine('swarm'), 'swarm');
  assert.equal(parseEngine('local'), 'local');
  assert.throws(
    () => parseEngine('kubernetes'),
    (e: unknown) => isUserError(e) && e.kind === 'usage' && /local or swarm, not 'kubernetes'/.test(e.message),
  );
});
