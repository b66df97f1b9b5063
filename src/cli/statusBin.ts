// dist/cli/status.cjs: `chainlens status` as one file (the stub loads it for that command), the
// same command run the same way as through main.ts, without loading any other command's code.
import { neutralised, runCliProcess } from './cliProcess';
import { statusCommand } from './commands/status';
import { runCommand } from './runCommand';
import { preferJitlessSchemas } from '../infra/run/stateSchemas';

preferJitlessSchemas();

runCliProcess((argv, io) => runCommand('status', async () => statusCommand, argv.slice(1), neutralised(io)));
