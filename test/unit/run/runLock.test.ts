// The run lock's stale-lock detection against real processes: a lock is broken only when its
// holder is provably gone (dead pid, or the pid now runs a process started at another time, e.g.
// after a reboot), never when it lives or runs on a host we cannot check; a live holder is named
// in the refusal.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunInUseError } from '../../../src/core/run/engine';
import { acquireLock, FileLock, type LockRecord } from '../../../src/infra/run/runLock';
import { processStartToken } from '../../../src/infra/process/processIdentity';

function withDir(fn: (dir: string) => Promise<void> | void) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-lock-'));
    try {
      await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

function holder(over: Partial<LockRecord>): LockRecord {
  return {
    pid: 1,
    startToken: null,
    host: hostname(),
    command: 'chainlens replay: replay',
    since: '2025-01-02T03:04:05Z',
    token: 'someone-else',
    ...over,
  };
}

/** A real process that has exited: its pid is free (or soon reused by another process). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

const linux = existsSync('/proc/self/stat');

describe('run lock', () => {
  it(
    'refuses a second holder at once, naming pid, command and since when; free again after release',
    withDir((dir) => {
      const path = join(dir, 'lock');
      const first = acquireLock(path, 'submit', 'the run in /w');
      const record = JSON.parse(readFileSync(path, 'utf8')) as LockRecord;
      assert.equal(record.pid, process.pid);
      assert.equal(record.host, hostname());
      if (linux) assert.equal(record.startToken, processStartToken(process.pid));
      assert.throws(
        () => acquireLock(path, 'replay', 'the run in /w'),
        (e: unknown) =>
          e instanceof RunInUseError &&
          /^another ChainLens operation in this process \(ChainLens: submit, since \d{4}-[\d-]+T[\d:]+Z\) is changing the run in \/w; nothing was done/.test(
            e.message,
          ),
      );
      first.release();
      assert.ok(!existsSync(path));
      acquireLock(path, 'replay', 'the run in /w').release();
    }),
  );

  it(
    'a live process of another program holds it: refused, its pid named',
    withDir(async (dir) => {
      const path = join(dir, 'lock');
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
      try {
        writeFileSync(path, JSON.stringify(holder({ pid: child.pid!, startToken: processStartToken(child.pid!) })));
        assert.throws(
          () => acquireLock(path, 'submit', 'the run in /w'),
          /the run in \/w is being changed by pid \d+ \(chainlens replay: replay, since 2025-01-02T03:04:05Z\); nothing was done/,
        );
      } finally {
        child.kill();
      }
    }),
  );

  it(
    'a dead holder is stale: the lock is taken over',
    withDir((dir) => {
      const path = join(dir, 'lock');
      writeFileSync(path, JSON.stringify(holder({ pid: deadPid() })));
      const h = acquireLock(path, 'submit', 'the run in /w');
      assert.equal((JSON.parse(readFileSync(path, 'utf8')) as LockRecord).pid, process.pid);
      h.release();
    }),
  );

  it(
    'a reused pid (same number, another start time) is stale',
    { skip: !linux && 'no /proc here: only the pid can be checked' },
    withDir((dir) => {
      const path = join(dir, 'lock');
      // Our parent is alive, but the recorded start time says the holder was an earlier process with that pid.
      writeFileSync(
        path,
        JSON.stringify(holder({ pid: process.ppid, startToken: `${processStartToken(process.ppid)}0` })),
      );
      acquireLock(path, 'submit', 'the run in /w').release();
    }),
  );

  it(
    'a lock from before a reboot is stale; one from another host is never broken and says which file to delete',
    withDir((dir) => {
      const path = join(dir, 'lock');
      if (linux) {
        // Same pid and clock ticks, but counted in another boot (the token starts with the boot id).
        const ticks = processStartToken(process.ppid)!.split(':').pop();
        writeFileSync(path, JSON.stringify(holder({ pid: process.ppid, startToken: `another-boot:${ticks}` })));
        acquireLock(path, 'submit', 'the run in /w').release();
      }
      writeFileSync(path, JSON.stringify(holder({ pid: deadPid(), host: 'build-box-7' })));
      assert.throws(
        () => acquireLock(path, 'submit', 'the run in /w'),
        (e: unknown) =>
          e instanceof RunInUseError &&
          e.message.includes('by pid') &&
          e.message.includes('on host build-box-7') &&
          e.message.includes(`delete ${path}`),
      );
    }),
  );

  it(
    'a lock left by this very process (no operation holds it) and a lock file of garbage are stale',
    withDir((dir) => {
      const path = join(dir, 'lock');
      writeFileSync(path, JSON.stringify(holder({ pid: process.pid, startToken: processStartToken(process.pid) })));
      acquireLock(path, 'submit', 'the run in /w').release();
      writeFileSync(path, 'not a lock');
      acquireLock(path, 'submit', 'the run in /w').release();
    }),
  );

  it(
    'FileLock: nested operations of one holder re-enter; another FileLock on the same file is refused, even nested',
    withDir(async (dir) => {
      const path = join(dir, 'lock');
      const window = new FileLock(path, 'the run in /w');
      const agentTools = new FileLock(path, 'the run in /w');
      const order: string[] = [];
      await window.hold('submit', async () => {
        order.push('outer');
        await window.hold('open', async () => void order.push('nested'));
        await assert.rejects(
          agentTools.hold('submit_step', async () => void order.push('intruder')),
          /another ChainLens operation in this process \(ChainLens: submit/,
        );
      });
      assert.deepEqual(order, ['outer', 'nested']);
      assert.ok(!existsSync(path));
      await agentTools.hold('submit_step', async () => void order.push('after'));
      assert.deepEqual(order, ['outer', 'nested', 'after']);
    }),
  );
});
