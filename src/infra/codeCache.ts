// V8's code cache for a CommonJS bundle the `chainlens` bin loads, on runtimes without Node's own
// compile cache (module.enableCompileCache, Node 22.1+; Node 20 has none). Compiling the bundle
// and the functions a command calls is a tenth of `chainlens status` there; with the cache, V8
// takes the compiled code from the file instead (docs/reference/cli.md, "Start-up").
//
// Sound because the cache file is named by the Node version, the architecture and the bundle's
// stat data (size, inode, modification and change times in ns: what git trusts to see that a file
// changed; a build writes the file anew), since V8 itself checks only the text's length; V8
// rejects data made with other flags (then the file is made again); and the folder is the user's
// own cache folder (the mirror cache's, mirror.ts cacheRoot), not a shared temporary one: the
// cache is code that runs. No hash of the text: status loads node:crypto only for racily clean
// files, and loading it costs more than the compile the cache saves.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { createRequire, wrap } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

function cacheFolder(): string {
  const root =
    process.env.CHAINLENS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'chainlens');
  return join(root, 'code-cache');
}

/**
 * A short tag of the path (FNV-1a, 32 bits): two paths sharing one only share a cache slot, as
 * every build did before, so no stronger hash is needed, nor node:crypto's load.
 */
function pathTag(path: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/**
 * The bundle's text. esbuild writes ASCII (non-ASCII characters escaped), and ASCII read as
 * latin1 is the same text, made without UTF-8 decoding: half the time of a 2 MiB bundle's read.
 */
function bundleText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

type CommonJsWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

/**
 * Runs the CommonJS file `file` as `require` would (once, nothing exported), compiled from the
 * cache. `part`: which part of the file this start runs (a command of the CLI's bundle); each part
 * keeps its own cache, since a cache holds the functions the run that made it compiled, and
 * another command's would leave this one compiling its own at every start.
 */
export function requireWithCodeCache(file: string, part = 'all'): void {
  const st = statSync(file, { bigint: true });
  const source = bundleText(readFileSync(file));
  // The bundle's path names its build (two checkouts, or an earlier build kept to compare with,
  // each keep their own cache); its stat data names the version of that build.
  // Letters, digits and _ only: one part's prefix is then never the start of another's.
  const build = `${basename(file)}-${pathTag(file)}-${part.replace(/[^A-Za-z0-9]/g, '_')}-`;
  const key = [process.version, process.arch, st.size, st.ino, st.mtimeNs, st.ctimeNs].join('-');
  const cacheFile = join(cacheFolder(), `${build}${key}.bin`);
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
        // Each version of a build names a new file: the caches of its earlier versions (or
        // runtimes) go, so the folder holds one per build and part instead of one per version.
        const mine = basename(cacheFile);
        for (const name of readdirSync(dirname(cacheFile)))
          if (name.startsWith(build) && name !== mine) rmSync(join(dirname(cacheFile), name), { force: true });
      } catch {
        // A cache folder that cannot be written only costs the compile next time.
      }
    });
  }
  const module = { exports: {} };
  (script.runInThisContext() as CommonJsWrapper)(module.exports, createRequire(file), module, file, dirname(file));
}
