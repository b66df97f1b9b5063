// `chainlens status` as built for users (dist/cli.js loading dist/cli/status.cjs; the container
// level of `npm test` builds it first) on a clean work tree answers from .git's own files: it may
// load neither node:child_process (no git process), nor node:crypto (no racily clean file to
// hash), nor node:zlib (HEAD's tree read by src/core/util/inflatePrefix.ts). esbuild.mjs defers
// them in that bundle; a static import of anything else from them would load them again, and
// docs/reference/cli.md ("Start-up") says what that costs. Nor does it evaluate zod: the state
// files ChainLens wrote passed their schema check then, and their memos say so (checkMemo.ts);
// once a file is edited by hand, zod checks it again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeTinyChain } from '../helpers/tinyChain';

const BIN = resolve(__dirname, '../../dist/cli.js');
const DEFERRED = ['child_process', 'crypto', 'zlib'];

test('status on a clean work tree loads neither node:child_process, node:crypto nor node:zlib, nor zod until a state file is edited', () => {
  assert.ok(existsSync(BIN), 'dist/cli.js is built (npm run build)');
  const tiny = makeTinyChain();
  const probeDir = mkdtempSync(join(tmpdir(), 'chainlens-status-loads-'));
  try {
    const dir = join(tiny.root, 'work');
    execFileSync(process.execPath, [BIN, 'checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir], {
      stdio: 'ignore',
    });
    // git rewrites the index once its files are no longer racily clean (written in the index's
    // own clock tick), as any later git command in the work tree does.
    execFileSync('sleep', ['0.05']);
    execFileSync('git', ['update-index', '--refresh', '--really-refresh'], { cwd: dir, stdio: 'ignore' });
    const probe = join(probeDir, 'probe.cjs');
    const loaded = join(probeDir, 'loaded.json');
    writeFileSync(
      probe,
      `const M = require('node:module'); const load = M._load; const seen = new Set();
M._load = function (request, ...rest) { seen.add(String(request).replace(/^node:/, '')); return load.call(this, request, ...rest); };
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify([...seen, ...(globalThis.__zod_globalConfig ? ['zod'] : [])])));`,
    );
    const status = (): string[] => {
      const out = execFileSync(process.execPath, ['--require', probe, BIN, 'status', '--dir', dir], {
        encoding: 'utf8',
      });
      assert.match(out, /step 1/);
      return JSON.parse(readFileSync(loaded, 'utf8'));
    };
    const seen = status();
    assert.ok(
      seen.some((m) => m.endsWith('status.cjs') || m === 'fs'),
      `the probe saw the bundle load: ${seen}`,
    );
    assert.deepEqual(
      DEFERRED.filter((m) => seen.includes(m)),
      [],
      `status loaded ${DEFERRED.filter((m) => seen.includes(m))}`,
    );
    assert.equal(seen.includes('zod'), false, 'zod was evaluated');
    // A hand edit (still a valid run): checked in full again, and shown.
    const stateDir = JSON.parse(
      execFileSync(process.execPath, [BIN, 'status', '--dir', dir, '--json'], { encoding: 'utf8' }),
    ).stateDir as string;
    const current = readFileSync(join(stateDir, 'current'), 'utf8').trim();
    const runFile = join(stateDir, 'runs', `${current}.json`);
    writeFileSync(runFile, readFileSync(runFile, 'utf8').replace('"updatedAt": "', '"updatedAt": "2'));
    assert.equal(status().includes('zod'), true, 'an edited state file is checked by zod');
  } finally {
    tiny.cleanup();
    rmSync(probeDir, { recursive: true, force: true });
  }
});
