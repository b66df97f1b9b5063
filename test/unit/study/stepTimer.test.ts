// The step clock of a study when a window reloads: the new extension host takes the clock over
// and counts the reload while the old host may still save (its blur and deactivate flush). The
// old host's late save must not undo the reload or anything the new host recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StepTimer } from '../../../src/app/study/session';
import { StudyRunRecords } from '../../../src/infra/study/runRecords';
import { startClock } from '../../../src/core/study/timeOnTask';

const IDLE_GAP_MS = 120_000;

test("an old extension host's late save does not undo the reload the new host counted", () => {
  const records = new StudyRunRecords(mkdtempSync(join(tmpdir(), 'chainlens-clock-')), 'run-1');
  let now = 1_000;
  const clockNow = () => now;
  records.writeClock(2, startClock(now));
  const oldHost = new StepTimer(records, 2, IDLE_GAP_MS, clockNow, 2_000);
  oldHost.activity({ kind: 'edit', file: 'a.py' });
  oldHost.flush();

  now += 5_000; // the reload: a new host reads the saved clock and counts the reload
  const newHost = new StepTimer(records, 2, IDLE_GAP_MS, clockNow, 2_000);
  newHost.activity({ kind: 'reload' });
  newHost.activity({ kind: 'edit', file: 'a.py' });
  newHost.flush();

  now += 100; // the old host, going away, saves what it has
  oldHost.activity({ kind: 'blur' });
  oldHost.flush();
  const saved = records.clock(2)!;
  assert.equal(saved.reloads, 1);
  assert.equal(saved.editsPerFile['a.py'], 2, 'the edit before and the edit after the reload');

  // and it stays out of the way from then on
  oldHost.activity({ kind: 'edit', file: 'a.py' });
  oldHost.flush();
  assert.equal(records.clock(2)!.editsPerFile['a.py'], 2);
  newHost.activity({ kind: 'edit', file: 'a.py' });
  newHost.flush();
  assert.equal(records.clock(2)!.editsPerFile['a.py'], 3);
});
