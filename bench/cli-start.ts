// How long `chainlens` takes to start and answer, against `node -e 0` (the runtime's own start),
// all as processes, interleaved: `chainlens --help` (the command table only) and `chainlens
// status` on a checked-out demo work tree (one command's code, the run state read), both right
// after the checkout and once git has rewritten the index (no racily clean file left to hash).
// CHAINLENS_BENCH_BEFORE=<another build's dist/cli.js> adds that build's two commands to the same
// rounds (before and after in one run).
//
//   npm run build && node --import tsx bench/cli-start.ts [repetitions]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { interleave, report, timedProcess } from './lib/interleave';

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist/cli.js');
const reps = Number(process.argv[2] ?? 15);
const BEFORE = process.env.CHAINLENS_BENCH_BEFORE;

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'chainlens-bench-start-'));
  // Without NODE_EXTRA_CA_CERTS on every side: Node reads that bundle at each start (about 60 ms
  // here), the same for `node -e 0` and for ChainLens, so it would hide ChainLens's own start in
  // the ratio. The CLI never makes a TLS connection to answer these commands.
  const { NODE_EXTRA_CA_CERTS: _caBundle, ...inherited } = process.env;
  const env = { ...inherited, CHAINLENS_DATA: join(work, 'data') };
  const repo = join(work, 'invoicekit');
  execFileSync('bash', [join(ROOT, 'scripts/build-demo-repo.sh'), repo], { stdio: 'ignore' });
  const dir = join(work, 'run');
  const settled = join(work, 'settled');
  for (const d of [dir, settled])
    execFileSync(process.execPath, [CLI, 'checkout', join(ROOT, 'demo/chain.json'), '--repo', repo, '--dir', d], {
      env,
      stdio: 'ignore',
    });
  // Right after a checkout its files are racily clean (written in the index's own clock tick), and
  // status hashes them as git would; once any git command has rewritten the index (an editor's git
  // integration does within seconds), they are not.
  await new Promise((r) => setTimeout(r, 50));
  execFileSync('git', ['update-index', '-q', '--really-refresh'], { cwd: settled, stdio: 'ignore' });
  const side = (name: string, args: string[], check: RegExp) => ({
    name,
    run: async () => {
      const r = await timedProcess(process.execPath, args, { env });
      if (r.code !== 0 || !check.test(r.stdout)) throw new Error(`${name} failed:\n${r.stdout}${r.stderr}`);
      return r.ms;
    },
  });
  try {
    const measured = await interleave(
      [
        side('node -e 0', ['-e', '0'], /^$/),
        side('chainlens --help', [CLI, '--help'], /usage: chainlens/),
        side('chainlens status', [CLI, 'status', '--dir', dir], /step 1/),
        side('status, index settled', [CLI, 'status', '--dir', settled], /step 1/),
        ...(BEFORE
          ? [
              side('before: --help', [BEFORE, '--help'], /usage: chainlens/),
              side('before: status', [BEFORE, 'status', '--dir', dir], /step 1/),
            ]
          : []),
      ],
      reps,
    );
    console.log(report(`cli-start, ${reps} rounds`, measured, 'node -e 0'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 2;
});
