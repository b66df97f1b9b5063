// The bin as built for users (the container level of `npm test` builds it first), on a runtime
// without Node's compile cache (Node 20): a command other than status runs from
// dist/cli-main.cjs, compiled from V8's code cache, one cache file per command, and answers the
// same from the cache as without it (docs/reference/cli.md, "Start-up").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as nodeModule from 'node:module';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'dist/cli.js');
const hasCompileCache = (nodeModule as { enableCompileCache?: unknown }).enableCompileCache !== undefined;

test(
  'without a compile cache, each command runs from the code cache of dist/cli-main.cjs, its own file per command',
  { skip: hasCompileCache ? 'this runtime has module.enableCompileCache: the bin uses dist/cli/main.mjs' : false },
  () => {
    assert.ok(existsSync(BIN), 'dist/cli.js is built (npm run build)');
    const cache = mkdtempSync(join(tmpdir(), 'chainlens-bin-cache-'));
    try {
      const run = (...args: string[]) =>
        execFileSync(process.execPath, [BIN, ...args], {
          env: { ...process.env, CHAINLENS_CACHE: cache },
          encoding: 'utf8',
        });
      const chain = join(ROOT, 'demo/chain.json');
      const first = run('validate', chain);
      assert.match(first, /valid chainswe chain/);
      const files = () => readdirSync(join(cache, 'code-cache')).sort();
      assert.deepEqual(
        files().map((f) => f.replace(/^(cli-main\.cjs)-\w+-(\w+)-.*$/, '$1 $2')),
        ['cli-main.cjs validate'],
      );
      assert.equal(run('validate', chain), first, 'the same answer from the cache');
      run('grade', '--help');
      assert.deepEqual(
        files().map((f) => f.replace(/^(cli-main\.cjs)-\w+-(\w+)-.*$/, '$1 $2')),
        ['cli-main.cjs grade', 'cli-main.cjs validate'],
      );
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  },
);
