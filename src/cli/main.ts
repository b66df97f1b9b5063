import { isUserError } from '../core/util/errors';
import type { CliIO } from './command';
import { commands } from './commands/index';
import { setLockHolderLabel } from '../infra/runs/runLock';

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  return [
    'chainlens: solve chained SWE-bench tasks in place and grade them like the SWE-bench harness',
    '',
    'usage: chainlens <command> [options]   (chainlens <command> --help for details)',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name ? 0 : 2;
  }
  if (name === '--version') {
    io.out(process.env.CHAINLENS_VERSION ?? '0.1.0');
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`chainlens: unknown command '${name}'\n\n${help()}`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.usage);
    return 0;
  }
  // Named in the run's lock while this command changes a run ("chainlens replay: start").
  setLockHolderLabel(`chainlens ${name}`);
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (isUserError(e)) {
      io.err(`chainlens ${name}: ${e.message}`);
      for (const d of e.details) io.err(`  ${d}`);
      return e.kind === 'usage' ? 2 : 1;
    }
    throw e;
  }
}

const stdio: CliIO = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
  cwd: process.cwd(),
};

if (require.main === module) {
  main(process.argv.slice(2), stdio).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`chainlens: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 70;
    },
  );
}
