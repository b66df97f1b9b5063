// Start a real VS Code (code-server 4.104 = VS Code 1.104) on a loopback port, with its own
// user-data, extensions and logs folders under one temp root, and the extensions under test
// installed. stop() ends the whole process tree and removes the temp root.
import { spawn, execFile } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { assertProvisioned, codeServerEntry, node22 } from './paths';
import { stopGroup, trackGroup } from './processes';

export interface StartCodeServerOptions {
  /** Folder code-server opens. */
  workspace: string;
  /** An unpacked extension folder (has package.json); symlinked into the extensions dir. */
  extensionDevPath?: string;
  /** A .vsix to install with `code-server --install-extension` before starting. */
  vsixPath?: string;
  /** Merged over the harness defaults in <userDataDir>/User/settings.json. */
  settings?: Record<string, unknown>;
  /**
   * Keep workspace trust on (default off) to test Restricted Mode: the folder opens untrusted,
   * without the trust prompt; extensions that do not declare untrustedWorkspaces support stay off.
   */
  workspaceTrust?: boolean;
  /** Install the harness's extension-host test runner (default true); see README.md. */
  exthostRunner?: boolean;
  /** code-server --log level; 'debug' (default) makes the exthost log name each activation. */
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  /** Extra environment for code-server and so for the extension host. */
  env?: Record<string, string>;
  /** node:test context (or anything with after()): stop() is registered there, so it runs even on failure. */
  t?: { after(fn: () => Promise<void> | void): void };
}

export interface CodeServer {
  url: string;
  port: number;
  workspace: string;
  root: string;
  userDataDir: string;
  extensionsDir: string;
  logsDir: string;
  /** code-server's own stdout and stderr. */
  serverLog: string;
  /** Folder the extension-host runner reads requests from (undefined without the runner). */
  exthostDir?: string;
  /** Milliseconds from spawn to /healthz answering. */
  startupMs: number;
  stop(): Promise<void>;
}

const HARNESS_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
  'editor.accessibilitySupport': 'off',
  // Type what the test types: no auto-closing or suggestions turning keystrokes into other text.
  'editor.autoClosingBrackets': 'never',
  'editor.autoClosingQuotes': 'never',
  'editor.autoIndent': 'none',
  'editor.quickSuggestions': { other: false, comments: false, strings: false },
  'editor.suggestOnTriggerCharacters': false,
  'editor.acceptSuggestionOnEnter': 'off',
  'files.autoSave': 'off',
};

export const RUNNER_ID = 'chainlens-test.exthost-runner';
const runnerSource = resolve(__dirname, 'exthost-runner');

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        address && typeof address === 'object' ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function extensionFolderName(extensionPath: string): string {
  const manifestPath = join(extensionPath, 'package.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath}: not an extension folder (no package.json)`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    publisher?: string;
    name?: string;
    version?: string;
  };
  for (const field of ['publisher', 'name', 'version'] as const) {
    if (!manifest[field]) throw new Error(`${manifestPath}: field "${field}" is missing`);
  }
  return `${manifest.publisher}.${manifest.name}-${manifest.version}`;
}

function writeSettings(userDataDir: string, settings: Record<string, unknown>): void {
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

async function waitHealthy(
  url: string,
  child: { exitCode: number | null },
  serverLog: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`code-server exited with ${child.exitCode} before answering:\n${tail(serverLog)}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs} ms:\n${tail(serverLog)}`);
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export async function startCodeServer(options: StartCodeServerOptions): Promise<CodeServer> {
  assertProvisioned();
  if (!existsSync(options.workspace)) throw new Error(`workspace folder ${options.workspace} does not exist`);
  const root = mkdtempSync(join(tmpdir(), 'chainlens-e2e-'));
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  const logsDir = join(userDataDir, 'logs');
  const serverLog = join(root, 'code-server.log');
  const configFile = join(root, 'config.yaml'); // else code-server writes ~/.config/code-server
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(configFile, 'auth: none\n'); // an empty file is rejected as an invalid config
  writeSettings(userDataDir, {
    ...HARNESS_SETTINGS,
    'security.workspace.trust.enabled': options.workspaceTrust ?? false,
    // With trust on, open straight into Restricted Mode instead of a modal that blocks the UI.
    ...(options.workspaceTrust ? { 'security.workspace.trust.startupPrompt': 'never' } : {}),
    ...options.settings,
  });

  let exthostDir: string | undefined;
  if (options.exthostRunner ?? true) {
    // Copied, not linked: suite bundles are written inside it so their require('vscode') is
    // attributed to this extension by the extension host.
    cpSync(runnerSource, join(extensionsDir, extensionFolderName(runnerSource)), { recursive: true });
    exthostDir = join(root, 'exthost-runner');
    mkdirSync(exthostDir, { recursive: true });
  }
  if (options.extensionDevPath) {
    const source = resolve(options.extensionDevPath);
    symlinkSync(source, join(extensionsDir, extensionFolderName(source)), 'dir');
  }

  const baseArgs = [
    codeServerEntry,
    '--config',
    configFile,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
  ];
  if (options.vsixPath) {
    // After the folders above are in place: the install writes extensions.json from what is
    // there, and folders missing from that list would be ignored.
    const vsix = resolve(options.vsixPath);
    await promisify(execFile)(node22, [...baseArgs, '--install-extension', vsix, '--force'], {
      timeout: 120_000,
    }).catch((err: Error & { stdout?: string; stderr?: string }) => {
      rmSync(root, { recursive: true, force: true });
      const output = `${err.stdout ?? ''}${err.stderr ?? ''}`
        .split('\n')
        .filter((l) => /error|fail/i.test(l))
        .slice(0, 5);
      throw new Error(`installing ${vsix} failed: ${output.join('\n') || err.message}`);
    });
  }

  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (exthostDir) env.CHAINLENS_E2E_EXTHOST_DIR = exthostDir;
  for (const key of Object.keys(env)) if (key.startsWith('VSCODE_')) delete env[key]; // not a nested VS Code

  let stopCurrent: (() => Promise<void>) | undefined;
  options.t?.after(() => stopCurrent?.());
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const args = [
      ...baseArgs,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      '--log',
      options.logLevel ?? 'debug',
      ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
      options.workspace,
    ];
    const out = createWriteStream(serverLog, { flags: 'a' });
    const child = spawn(node22, args, { detached: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    const removeRoot = (): void => {
      if (process.env.CHAINLENS_E2E_KEEP) process.stderr.write(`[e2e] kept ${root}\n`);
      else rmSync(root, { recursive: true, force: true });
    };
    const pgid = trackGroup(child, removeRoot);
    let stopped: Promise<void> | undefined;
    const stop = (): Promise<void> =>
      (stopped ??= (async () => {
        await stopGroup(pgid);
        out.end();
        removeRoot();
      })());
    stopCurrent = stop;
    try {
      await waitHealthy(url, child, serverLog, 60_000);
    } catch (err) {
      await stopGroup(pgid);
      // Another process may have taken the port between freePort() and the bind: try another.
      if (attempt < 3 && /EADDRINUSE/.test(tail(serverLog))) {
        out.end();
        continue;
      }
      await stop();
      throw err;
    }
    return {
      url,
      port,
      workspace: resolve(options.workspace),
      root,
      userDataDir,
      extensionsDir,
      logsDir,
      serverLog,
      exthostDir,
      startupMs: Date.now() - started,
      stop,
    };
  }
}
