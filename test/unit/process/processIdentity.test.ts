import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ownStartToken, processGone, processStartToken } from '../../../src/infra/process/processIdentity';

test('a process is known by pid and start time: gone when its pid runs nothing or a later process', () => {
  const own = ownStartToken();
  assert.equal(processGone(process.pid, own), false, 'this process runs');
  assert.equal(processGone(process.pid, null), false, 'an unknown start time never makes a live pid gone');
  if (own !== null) assert.equal(processGone(process.pid, `${own}-earlier`), true, 'same pid, another start: reused');
  const ended = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout);
  assert.equal(processGone(ended, null), true);
  assert.equal(processStartToken(ended), null);
});
