// A managed container's removal is asked of the engine once: the engine refuses a second removal
// while the first runs (409 "removal already in progress"), so a shutdown that asked again would
// let the process end with the container still there. A fake container stands in for the engine
// here: the moment two removals overlap cannot be produced on demand with a real one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Docker from 'dockerode';
import { removeManagedContainer } from '../../../src/infra/docker/managed';

test('two removals of one container (fake container: overlapping removals on demand): one engine call, both wait for it', async () => {
  let calls = 0;
  let finish!: () => void;
  let removed = false;
  const container = {
    id: 'c1',
    remove: () => {
      calls++;
      if (calls > 1) return Promise.reject(new Error('(HTTP code 409) removal of container c1 is already in progress'));
      return new Promise<void>((resolve) => (finish = resolve)).then(() => void (removed = true));
    },
  } as unknown as Docker.Container;
  const first = removeManagedContainer(container);
  let secondDone = false;
  const second = removeManagedContainer(container).then(() => (secondDone = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(secondDone, false, 'the second removal returned while the first still ran');
  finish();
  await Promise.all([first, second]);
  assert.equal(calls, 1);
  assert.equal(removed, true);
});
