// Runs the CLI in-process (fast; same code path as dist/cli.js) and captures its output.
import './dataDir';
import { main } from '../../src/cli/main';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], cwd = process.cwd()): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { out: (t) => (stdout += t + '\n'), err: (t) => (stderr += t + '\n'), cwd });
  return { code, stdout, stderr };
}
