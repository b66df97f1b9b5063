// The harness side of extension-host suites: bundle a suite file with esbuild, hand it to the
// runner extension of the extension host the workbench is connected to, wait for its report.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { CodeServer } from '../codeServer';
import { RUNNER_ID } from '../codeServer';
import type { ExthostReport } from './suite';

export type { ExthostReport, ExthostTestResult } from './suite';

const suiteRuntime = resolve(__dirname, 'suite.ts');
let counter = 0;

function runnerFolder(server: CodeServer): string {
  const folder = readdirSync(server.extensionsDir).find((n) => n.startsWith(`${RUNNER_ID}-`));
  if (!server.exthostDir || !folder) throw new Error('code-server was started with exthostRunner: false');
  return join(server.extensionsDir, folder);
}

/** Pids of extension hosts whose runner has activated, newest last. */
export function readyExtensionHosts(server: CodeServer): { pid: number; at: string }[] {
  if (!server.exthostDir || !existsSync(server.exthostDir)) return [];
  return readdirSync(server.exthostDir)
    .filter((n) => /^ready-\d+\.json$/.test(n))
    .map((n) => JSON.parse(readFileSync(join(server.exthostDir as string, n), 'utf8')) as { pid: number; at: string })
    .filter((r) => processAlive(r.pid))
    .sort((a, b) => a.at.localeCompare(b.at));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface RunExthostSuiteOptions {
  /** Only tests whose full title matches (a RegExp source). */
  grep?: string;
  /** Per test and per hook, inside the extension host (default 10 s). */
  testTimeoutMs?: number;
  /** For the whole run, from the harness's side (default 120 s). */
  timeoutMs?: number;
  /** Which extension host (default: the newest live one, i.e. the open workbench's). */
  exthostPid?: number;
}

/**
 * Runs a suite file (TypeScript using ./suite's suite/test, and 'vscode') inside the extension
 * host of the open workbench and returns its report. A workbench must be open: code-server only
 * starts an extension host for a connected browser.
 */
export async function runExtensionHostSuite(
  server: CodeServer,
  suiteFile: string,
  options: RunExthostSuiteOptions = {},
): Promise<ExthostReport> {
  const folder = runnerFolder(server);
  const hosts = readyExtensionHosts(server);
  const pid = options.exthostPid ?? hosts.at(-1)?.pid;
  if (pid === undefined)
    throw new Error('no extension host with the runner is up: open the workbench first (openWorkbench)');

  const id = `${Date.now()}-${process.pid}-${++counter}`;
  const bundle = join(folder, 'suites', `${basename(suiteFile).replace(/\.[cm]?[jt]s$/, '')}-${id}.js`);
  mkdirSync(join(folder, 'suites'), { recursive: true });
  const absSuite = resolve(suiteFile);
  // The entry re-exports the runner and imports the suite, so both share one registry.
  await build({
    stdin: {
      contents: `export { runRegistered as run } from ${JSON.stringify(suiteRuntime)};\nimport ${JSON.stringify(absSuite)};\n`,
      resolveDir: resolve(__dirname),
      sourcefile: 'exthost-suite-entry.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['vscode'],
    sourcemap: 'inline',
    outfile: bundle,
    logLevel: 'silent',
  });

  const results = join(server.exthostDir as string, `results-${id}.json`);
  const inbox = join(server.exthostDir as string, 'requests', String(pid));
  mkdirSync(inbox, { recursive: true });
  const request = join(inbox, `${id}.json`);
  writeFileSync(
    `${request}.tmp`,
    JSON.stringify({ bundle, results, grep: options.grep, timeoutMs: options.testTimeoutMs ?? 10_000 }),
  );
  renameSync(`${request}.tmp`, request);

  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (!existsSync(results)) {
    if (Date.now() > deadline) throw new Error(`extension host ${pid} did not report on ${suiteFile} in time`);
    if (!processAlive(pid)) throw new Error(`extension host ${pid} exited while running ${suiteFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return withSourceStacks(JSON.parse(readFileSync(results, 'utf8')) as ExthostReport, bundle);
}

/**
 * Rewrites bundle positions in stacks to the .ts sources. Done here rather than in the
 * extension host because VS Code installs its own Error.prepareStackTrace there, which
 * bypasses Node's source-map support.
 */
function withSourceStacks(report: ExthostReport, bundle: string): ExthostReport {
  const inline = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(readFileSync(bundle, 'utf8'));
  if (!inline) return report;
  const map = new SourceMap(JSON.parse(Buffer.from(inline[1], 'base64').toString('utf8')));
  const escaped = bundle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const position = new RegExp(`${escaped}:(\\d+):(\\d+)`, 'g');
  const rewrite = (stack?: string): string | undefined =>
    stack?.replace(position, (whole, line: string, column: string) => {
      const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as {
        originalSource?: string;
        originalLine?: number;
        originalColumn?: number;
      };
      if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined)
        return whole;
      const source = entry.originalSource.startsWith('file://')
        ? new URL(entry.originalSource).pathname
        : resolve(dirname(bundle), entry.originalSource);
      return `${relative(process.cwd(), source) || source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    });
  const fix = <T extends { stack?: string } | undefined>(e: T): T => (e ? { ...e, stack: rewrite(e.stack) } : e);
  return {
    ...report,
    loadError: fix(report.loadError),
    tests: report.tests.map((t) => ({ ...t, error: fix(t.error) })),
  };
}

/** Throws one error listing every failure (message and stack), or returns when all passed. */
export function assertSuitePassed(report: ExthostReport): void {
  const problems: string[] = [];
  if (report.loadError) problems.push(`suite did not load: ${report.loadError.stack ?? report.loadError.message}`);
  for (const t of report.tests)
    if (t.state === 'failed') problems.push(`${t.fullTitle}: ${t.error?.stack ?? t.error?.message}`);
  if (report.tests.length === 0 && !report.loadError) problems.push('no tests ran');
  if (problems.length > 0) throw new Error(`extension-host suite failed:\n${problems.join('\n\n')}`);
}
