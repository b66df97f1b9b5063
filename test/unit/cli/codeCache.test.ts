// The bin's V8 code cache (src/infra/codeCache.ts), in real Node processes: the file runs as
// `require` would run it, a cache file is written at exit and taken by the next start, a
// rebuilt bundle replaces the earlier build's cache file instead of adding one per build, and two
// builds in two folders (two checkouts; a build kept to compare with) keep one each, as do the
// parts (commands) of one bundle.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CODE_CACHE = join(__dirname, '../../../src/infra/codeCache.ts');

function start(bundle: string, cache: string, part?: string): string {
  const args = [bundle, ...(part ? [part] : [])].map((a) => JSON.stringify(a)).join(', ');
  const script = `require(${JSON.stringify(CODE_CACHE)}).requireWithCodeCache(${args})`;
  return execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    env: { ...process.env, CHAINLENS_CACHE: cache },
    encoding: 'utf8',
  });
}

/** Runs `body` in a new temporary folder, removed after whatever happens. */
function inTempDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-codecache-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('code cache of the bin', () => {
  it('runs the bundle with require and __dirname, reuses its cache, and keeps one file per bundle', () =>
    inTempDir((dir) => {
      const bundle = join(dir, 'status.cjs');
      const cache = join(dir, 'cache');
      writeFileSync(bundle, "process.stdout.write(typeof require + ' ' + __dirname + '\\n');\n");
      assert.equal(start(bundle, cache), `function ${dir}\n`);
      const first = readdirSync(join(cache, 'code-cache'));
      assert.equal(first.length, 1);
      assert.equal(start(bundle, cache), `function ${dir}\n`);
      assert.deepEqual(readdirSync(join(cache, 'code-cache')), first);
      // A new build: another file, and the old one goes.
      writeFileSync(bundle, "process.stdout.write('rebuilt\\n');\n");
      assert.equal(start(bundle, cache), 'rebuilt\n');
      const after = readdirSync(join(cache, 'code-cache'));
      assert.equal(after.length, 1);
      assert.notDeepEqual(after, first);
    }));

  it('reads an ASCII bundle and one with UTF-8 text alike, from source and from the cache', () =>
    inTempDir((dir) => {
      const cache = join(dir, 'cache');
      const ascii = join(dir, 'ascii.cjs');
      const utf8 = join(dir, 'utf8.cjs');
      writeFileSync(ascii, "process.stdout.write('\\u00e9t\\u00e9 ' + 'x'.length + '\\n');\n");
      writeFileSync(utf8, "process.stdout.write('\u00e9t\u00e9 \u{1F600} ' + '\u00e9'.length + '\\n');\n");
      for (let run = 0; run < 2; run++) {
        assert.equal(start(ascii, cache), '\u00e9t\u00e9 1\n');
        assert.equal(start(utf8, cache), '\u00e9t\u00e9 \u{1F600} 1\n');
      }
    }));

  it("keeps a cache per build folder: running one build does not drop the other build's cache", () =>
    inTempDir((dir) => {
      const cache = join(dir, 'cache');
      const bundles = ['a', 'b'].map((name) => {
        mkdirSync(join(dir, name));
        const bundle = join(dir, name, 'status.cjs');
        writeFileSync(bundle, `process.stdout.write('${name}\\n');\n`);
        return bundle;
      });
      assert.equal(start(bundles[0], cache), 'a\n');
      const first = readdirSync(join(cache, 'code-cache'));
      assert.equal(start(bundles[1], cache), 'b\n');
      const both = readdirSync(join(cache, 'code-cache'));
      assert.equal(both.length, 2, "the second build removed the first build's cache");
      assert.ok(first.every((f) => both.includes(f)));
      assert.equal(start(bundles[0], cache), 'a\n');
      assert.deepEqual(readdirSync(join(cache, 'code-cache')).sort(), both.sort());
    }));

  it('keeps a cache per part of one bundle (a command of the CLI), none replacing another', () =>
    inTempDir((dir) => {
      const bundle = join(dir, 'cli-main.cjs');
      const cache = join(dir, 'cache');
      writeFileSync(bundle, "process.stdout.write('ran\\n');\n");
      for (const part of ['eval', 'checkout', 'eval-x']) assert.equal(start(bundle, cache, part), 'ran\n');
      const files = readdirSync(join(cache, 'code-cache')).sort();
      assert.equal(files.length, 3, `one cache per part: ${files}`);
      assert.equal(start(bundle, cache, 'eval'), 'ran\n');
      assert.deepEqual(readdirSync(join(cache, 'code-cache')).sort(), files);
      // A new build replaces each part's cache as that part runs, and only that part's.
      writeFileSync(bundle, "process.stdout.write('rebuilt\\n');\n");
      assert.equal(start(bundle, cache, 'eval'), 'rebuilt\n');
      const after = readdirSync(join(cache, 'code-cache'));
      assert.equal(after.length, 3);
      assert.equal(after.filter((f) => !files.includes(f)).length, 1);
    }));
});
