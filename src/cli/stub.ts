// dist/cli.js, the `chainlens` bin: as little as possible before the command's own code loads.
// Node's on-disk compile cache (module.enableCompileCache, Node 22.1+) makes later starts skip
// compiling; older runtimes have none and go on without it. See docs/reference/cli.md.
import * as nodeModule from 'node:module';

const withCache = nodeModule as { enableCompileCache?: () => unknown };
try {
  withCache.enableCompileCache?.();
} catch {
  // A cache that cannot be opened (read-only tmp) only costs the compile.
}
// Beside this file in dist/; a variable, so the bundler leaves the import to run time.
const commandLine = './cli/main.mjs';
void import(commandLine);
