// dist/cli.js, the `chainlens` bin: as little as possible before the command's own code loads.
// The help is printed from here (the command table only); `status`, which people and scripts run
// often, is one CommonJS file (dist/cli/status.cjs). With Node's on-disk compile cache
// (module.enableCompileCache, Node 22.1+) every other command goes through dist/cli/main.mjs,
// split per command, and later starts skip compiling. Older runtimes have none: there status.cjs
// and dist/cli-main.cjs (the whole CLI as one CommonJS file) are compiled from V8's code cache
// instead (infra/codeCache.ts), one cache per command, which ES modules cannot use.
// See docs/reference/cli.md.
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { neutraliseControls } from '../core/util/terminalText';
import { commandSummaries } from './commandSummaries';
import { helpExitCode, helpText } from './help';
import { processStdio } from './stdio';

const argv = process.argv.slice(2);
const helpCode = helpExitCode(argv);
if (helpCode !== null) {
  processStdio().out(neutraliseControls(helpText()));
  process.exitCode = helpCode;
} else {
  const withCache = nodeModule as { enableCompileCache?: () => unknown };
  let compileCache = false;
  try {
    compileCache = withCache.enableCompileCache !== undefined;
    withCache.enableCompileCache?.();
  } catch {
    // A cache that cannot be opened (read-only tmp) only costs the compile.
  }
  // Beside this file in dist/; variables, so the bundler leaves the loading to run time.
  const statusCommand = './cli/status.cjs';
  const commandLine = './cli/main.mjs';
  const commandLineCommonJs = './cli-main.cjs';
  if (compileCache) {
    if (argv[0] !== 'status') void import(commandLine);
    else nodeModule.createRequire(__filename)(statusCommand);
  } else {
    // Without Node's compile cache (Node 20), V8's code cache for one CommonJS file: loaded only
    // here, so the help does not pay for node:vm.
    const file = argv[0] === 'status' ? statusCommand : commandLineCommonJs;
    const part = commandSummaries.some((c) => c.name === argv[0]) ? argv[0] : 'other';
    void import('../infra/codeCache').then((c) => c.requireWithCodeCache(join(__dirname, file), part));
  }
}
