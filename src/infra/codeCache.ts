// V8's code cache for a CommonJS bundle the `chainlens` bin loads, on runtimes without Node's own
// compile cache (module.enableCompileCache, Node 22.1+; Node 20 has none). Compiling the bundle
// and the functions a command calls is a tenth of `chainlens status` there; with the cache, V8
// takes the compiled code from the file instead (docs/reference/cli.md, "Start-up").
//
// Sound because the cache file is named by a hash of the bundle's text, the Node version and the
// architecture (V8 itself checks only the text's length), V8 rejects data made with other flags
// (then the file is made again), and the folder is the user's own cache folder (the mirror
// cache's, mirror.ts cacheRoot), not a shared temporary one: the cache is code that runs.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

function cacheFolder(): string {
  const root =
    process.env.CHAINLENS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'chainlens');
  return join(root, 'code-cache');
}

type CommonJsWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

/** Runs the CommonJS file `file` as `require` would (once, nothing exported), compiled from the cache. */
export function requireWithCodeCache(file: string): void {
  const source = readFileSync(file, 'utf8');
  const key = createHash('sha256').update(`${process.version} ${process.arch}\n`).update(source).digest('hex');
  const cacheFile = join(cacheFolder(), `${key.slice(0, 32)}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(wrap(source), { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    // Made at exit, so it holds the functions this run compiled, not only the top level.
    process.once('exit', () => {
      try {
        mkdirSync(dirname(cacheFile), { recursive: true });
        const partial = `${cacheFile}.${process.pid}`;
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
      } catch {
        // A cache folder that cannot be written only costs the compile next time.
      }
    });
  }
  const module = { exports: {} };
  (script.runInThisContext() as CommonJsWrapper)(module.exports, createRequire(file), module, file, dirname(file));
}
