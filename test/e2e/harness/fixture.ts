// The setup every ChainLens e2e file shares: a fresh workspace folder, code-server with the
// extension under test, the workbench open in Chromium, and one close() that undoes all three
// (also when a step of the setup fails half way).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startCodeServer, type CodeServer } from './codeServer';
import { repoRoot } from './paths';
import { openWorkbench, type Workbench } from './workbench';

/** A folder a test opens in VS Code and removes afterwards. */
export interface E2eWorkspace {
  dir: string;
  remove(): void;
}

export interface OpenChainLensWorkbenchOptions<W extends E2eWorkspace> {
  /** Makes the folder to open; the fixture removes it in close(). */
  workspace: () => W;
  /** Unpacked extension to link; default the repository itself (ChainLens as built in dist/). */
  extensionDevPath?: string;
  /** A .vsix to install instead of linking an unpacked extension. */
  vsixPath?: string;
  /** Open the folder in Restricted Mode (see startCodeServer). */
  workspaceTrust?: boolean;
  settings?: Record<string, unknown>;
  viewport?: { width: number; height: number };
  /** node:test context: close() is registered with its after(). */
  t?: { after(fn: () => Promise<void> | void): void };
}

export interface ChainLensWorkbench<W extends E2eWorkspace = E2eWorkspace> {
  server: CodeServer;
  wb: Workbench;
  /** wb.page. */
  page: Page;
  workspace: W;
  /** Closes the browser, stops code-server, removes the workspace. Idempotent. */
  close(): Promise<void>;
}

/** A fresh temp folder (`<tmp>/<prefix>XXXXXX`), filled by `fill`. */
export function tempWorkspace(prefix: string, fill?: (dir: string) => void): E2eWorkspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    fill?.(dir);
  } catch (err) {
    remove();
    throw err;
  }
  return { dir, remove };
}

/** Makes the workspace, starts code-server with the extension on it and opens the workbench. */
export async function openChainLensWorkbench<W extends E2eWorkspace>(
  options: OpenChainLensWorkbenchOptions<W>,
): Promise<ChainLensWorkbench<W>> {
  const workspace = options.workspace();
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      await wb?.close();
      await server?.stop();
      workspace.remove();
    })());
  options.t?.after(close);
  try {
    server = await startCodeServer({
      workspace: workspace.dir,
      ...(options.vsixPath
        ? { vsixPath: options.vsixPath }
        : { extensionDevPath: options.extensionDevPath ?? repoRoot }),
      settings: options.settings,
      workspaceTrust: options.workspaceTrust,
    });
    wb = await openWorkbench(server, { viewport: options.viewport });
  } catch (err) {
    await close();
    throw err;
  }
  return { server, wb, page: wb.page, workspace, close };
}
