// A full disk never tears state (docs/run-state.md, "A full disk"): on a real, small tmpfs filled
// to within 0..N pages, every write either lands whole or fails naming its file, with the old
// content left and no temp file beside it; a submit that failed is retried once space is freed
// and submits exactly the step the person worked on, never the next one empty.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { makeTinyChain, type TinyChain } from '../../helpers/tinyChain';
import { mountTmpfs, tmpfsSkip, type Tmpfs } from '../../helpers/tmpfs';
import { withDataRoot } from '../../../src/infra/run/stateDir';
import { openWorkspace } from '../../../src/infra/run/workspace';
import { writeFileAtomic } from '../../../src/infra/files';
import { EvalStore } from '../../../src/infra/evaluation/evalStore';
import { BatchRunDir } from '../../../src/infra/batch/runDir';
import { StudySessions } from '../../../src/infra/study/sessionFiles';
import { SweciStore } from '../../../src/infra/sweci/sweciStore';

let tiny: TinyChain;
let disk: Tmpfs;

before(() => {
  if (tmpfsSkip) return;
  tiny = makeTinyChain();
  disk = mountTmpfs(512);
});

after(() => {
  if (tmpfsSkip) return;
  disk.unmount();
  tiny.cleanup();
});

/** Every file under `dir`: no temp file of a write, and every JSON file parses. */
function assertWhole(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (entry.name === '.filler') continue;
    assert.doesNotMatch(entry.name, /\.tmp$/, `temp file left: ${path}`);
    if (/\.json$/.test(entry.name)) assert.doesNotThrow(() => JSON.parse(readFileSync(path, 'utf8')), `torn: ${path}`);
  }
}

test(
  'writeFileAtomic on a full disk throws ENOSPC naming the file, keeps the old content, leaves no temp file',
  { skip: tmpfsSkip },
  () => {
    const file = join(disk.dir, 'big.json');
    writeFileAtomic(file, JSON.stringify({ v: 'old' }));
    disk.fill(2);
    try {
      const big = JSON.stringify({ v: 'x'.repeat(30_000) });
      assert.throws(
        () => writeFileAtomic(file, big),
        (e: NodeJS.ErrnoException) => e.code === 'ENOSPC' && e.path === file,
      );
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { v: 'old' });
      assertWhole(disk.dir);
    } finally {
      disk.free();
    }
  },
);

test(
  'submit on a disk with 0..5 pages left: fails whole or succeeds; retried after freeing space it submits step 1 with its file, not step 2 empty',
  { skip: tmpfsSkip },
  async () => {
    for (let pages = 0; pages <= 5; pages++) {
      const data = join(disk.dir, `data-${pages}`);
      const dir = join(tiny.root, `w-full-${pages}`);
      await withDataRoot(data, async () => {
        const checkout = await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir]);
        assert.equal(checkout.code, 0, checkout.stderr);
        writeFileSync(join(dir, 'calc', 'ops.py'), '# the person edited this\n');
        disk.fill(pages);
        let first;
        try {
          first = await runCli(['submit', '--dir', dir]);
        } finally {
          disk.free();
        }
        assertWhole(data);
        if (first.code !== 0) {
          assert.equal(first.code, 1, first.stderr);
          assert.match(first.stderr, /no space left on the device \(ENOSPC\)/);
          assert.doesNotMatch(first.stderr, /^\s+at |internal error/m);
          const retry = await runCli(['submit', '--dir', dir]);
          assert.equal(retry.code, 0, retry.stderr);
        }
        const ws = await openWorkspace(dir);
        const state = ws.store.loadRun(ws.store.currentRunId()!)!;
        assert.equal(state.currentStep, 2, `with ${pages} page(s) left: ${first.stderr}`);
        assert.equal(state.steps[0].status, 'submitted');
        assert.equal(state.steps[0].patch?.files, 1, `with ${pages} page(s) left, step 1 lost the person's file`);
        assertWhole(data);
      });
    }
  },
);

test(
  'evals.json, batch records, study sessions and SWE-CI records on a full disk: the previous content stays, no temp file',
  { skip: tmpfsSkip },
  () => {
    const root = join(disk.dir, 'stores');
    const evaluation = (n: number) => ({
      order: 1,
      source: 'gold',
      status: 'resolved',
      at: new Date(0).toISOString(),
      note: 'x'.repeat(n),
    });
    const writers: { name: string; file: () => string; write: (size: number) => void }[] = [
      {
        name: 'evals.json',
        file: () => join(root, 'eval', 'runs', 'r1.evals.json'),
        write: (n) => new EvalStore(join(root, 'eval')).record('r1', evaluation(n) as never, join(root, 'eval', 'e')),
      },
      {
        name: 'batch record',
        file: () => join(root, 'batch', 'manifest.json'),
        write: (n) => new BatchRunDir(join(root, 'batch')).writeManifest({ note: 'x'.repeat(n) } as never),
      },
      {
        name: 'study session',
        file: () => join(root, 'study', 'participants', 'p1.json'),
        write: (n) =>
          new StudySessions('s', join(root, 'study')).write({ participant: 'p1', note: 'x'.repeat(n) } as never),
      },
      {
        name: 'SWE-CI record',
        file: () => new SweciStore(join(root, 'sweci')).recordPath('r1'),
        write: (n) => new SweciStore(join(root, 'sweci')).write({ runId: 'r1', note: 'x'.repeat(n) } as never),
      },
    ];
    for (const w of writers) {
      w.write(10);
      const before = readFileSync(w.file(), 'utf8');
      disk.fill(1);
      try {
        assert.throws(
          () => w.write(40_000),
          (e: NodeJS.ErrnoException) => e.code === 'ENOSPC',
          w.name,
        );
      } finally {
        disk.free();
      }
      assert.equal(readFileSync(w.file(), 'utf8'), before, `${w.name} changed on a failed write`);
      assert.ok(statSync(w.file()).size > 0);
      assertWhole(root);
    }
  },
);
