// Bundles the CLI once per test process (esbuild, a fraction of a second) so tests can spawn it
// as a real separate process: needed to kill it with SIGKILL mid-operation.
import './dataDir';
import { buildSync } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

let built: string | undefined;

export function builtCli(): string {
  if (built) return built;
  const out = join(mkdtempSync(join(tmpdir(), 'chainlens-cli-')), 'cli.js');
  buildSync({
    entryPoints: [resolve(__dirname, '../../src/cli/bin.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'error',
    external: ['cpu-features', './crypto/build/Release/sshcrypto.node'],
  });
  built = out;
  return out;
}

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runBuiltCli(args: string[], env: Record<string, string> = {}): ProcessResult {
  const r = spawnSync(process.execPath, [builtCli(), ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Starts the CLI and sends it `signal` (default SIGKILL) after `afterMs` (if still running). */
export function runBuiltCliKilledAfter(
  args: string[],
  afterMs: number,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<ProcessResult> {
  return new Promise((resolveResult) => {
    const child = spawn(process.execPath, [builtCli(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill(signal), afterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveResult({ code, signal, stdout, stderr });
    });
  });
}
