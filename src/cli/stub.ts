// dist/cli.js, the `chainlens` bin: as little as possible before the command's own code loads.
// The help is printed from here (the command table only); `status`, which people and scripts run
// often, is one CommonJS file (dist/cli/status.cjs); every other command goes through
// dist/cli/main.mjs, split per command. Node's on-disk compile cache (module.enableCompileCache,
// Node 22.1+) makes later starts skip compiling; older runtimes have none and go on without it.
// See docs/reference/cli.md.
import * as nodeModule from 'node:module';
import { neutraliseControls } from '../core/util/terminalText';
import { helpExitCode, helpText } from './help';
import { processStdio } from './stdio';

const argv = process.argv.slice(2);
const helpCode = helpExitCode(argv);
if (helpCode !== null) {
  processStdio().out(neutraliseControls(helpText()));
  process.exitCode = helpCode;
} else {
  const withCache = nodeModule as { enableCompileCache?: () => unknown };
  try {
    withCache.enableCompileCache?.();
  } catch {
    // A cache that cannot be opened (read-only tmp) only costs the compile.
  }
  // Beside this file in dist/; variables, so the bundler leaves the loading to run time.
  const statusCommand = './cli/status.cjs';
  const commandLine = './cli/main.mjs';
  if (argv[0] === 'status') nodeModule.createRequire(__filename)(statusCommand);
  else void import(commandLine);
}
