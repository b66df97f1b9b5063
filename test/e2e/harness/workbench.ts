// Drive the code-server workbench in Debian's Chromium through playwright-core, the way a person
// would: command palette, quick open, tree views, notifications, the editor.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
import type { CodeServer } from './codeServer';
import { readyExtensionHosts } from './exthost/run';
import { extensionHostLogDirs, readExtensionHostLog } from './logs';
import { chromiumPath, testResultsDir } from './paths';

// What Debian's Chromium needs as root on a VM without GPU or internet (CONTRIBUTING.md, "Set-up on a
// fresh machine").
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Workbench {
  page: Page;
  browser: Browser;
  /** Pid of the extension host serving this page (undefined without the runner extension). */
  exthostPid?: number;
  /** Milliseconds from navigation to `.monaco-workbench`, and to the extension host being up. */
  timings: { workbenchMs: number; extensionHostMs: number };
  /** Console errors of the page, for diagnosing a failure. */
  consoleErrors: string[];
  close(): Promise<void>;
}

export interface OpenWorkbenchOptions {
  viewport?: { width: number; height: number };
  timeoutMs?: number;
  t?: { after(fn: () => Promise<void> | void): void };
}

async function until<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Opens the workspace in a fresh browser and waits until the workbench and its extension host are up. */
export async function openWorkbench(server: CodeServer, options: OpenWorkbenchOptions = {}): Promise<Workbench> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
  const close = async (): Promise<void> => {
    await browser.close().catch(() => undefined);
  };
  options.t?.after(close);
  try {
    const page = await browser.newPage({ viewport: options.viewport ?? { width: 1400, height: 900 } });
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    const hostsBefore = new Set(readyExtensionHosts(server).map((h) => h.pid));
    const logDirsBefore = new Set(extensionHostLogDirs(server));
    const t0 = Date.now();
    await page.goto(`${server.url}/?folder=${encodeURIComponent(server.workspace)}`, { timeout: timeoutMs });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
    const workbenchMs = Date.now() - t0;
    let exthostPid: number | undefined;
    if (server.exthostDir) {
      // The runner activates onStartupFinished, so its ready file means "extension host up and started".
      exthostPid = await until(
        'the extension host (runner ready file)',
        timeoutMs,
        () => readyExtensionHosts(server).find((h) => !hostsBefore.has(h.pid))?.pid,
      );
    } else {
      await until('the extension host log', timeoutMs, () => {
        const dir = extensionHostLogDirs(server).find((d) => !logDirsBefore.has(d));
        return dir && /Extension host with pid \d+ started/.test(readExtensionHostLog(server)) ? dir : undefined;
      });
    }
    return {
      page,
      browser,
      exthostPid,
      timings: { workbenchMs, extensionHostMs: Date.now() - t0 },
      consoleErrors,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Saves a full-window PNG as <repo>/test-results/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(testResultsDir, { recursive: true });
  const file = join(testResultsDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file });
  return file;
}

const quickInput = (page: Page): Locator => page.locator('.quick-input-widget');
const quickInputRows = (page: Page): Locator => page.locator('.quick-input-widget .quick-input-list .monaco-list-row');

async function openQuickInput(page: Page, text: string): Promise<void> {
  if (await quickInput(page).isVisible()) await page.keyboard.press('Escape');
  const input = page.locator('.quick-input-widget input.input');
  // A webview that takes the focus as it loads (a problem statement just revealed) closes a quick
  // input opened a moment before: then it is opened again, as a person would.
  for (let opened = 1; ; opened++) {
    await pressF1(page);
    try {
      await input.fill(text, { timeout: opened < 3 ? 5_000 : 15_000 });
      return;
    } catch (e) {
      if (opened >= 3) throw e;
    }
  }
}

async function pressF1(page: Page): Promise<void> {
  // With the focus in a webview (a problem statement just shown), F1 reaches the workbench only
  // through the webview forwarding it, which a loaded machine can lose (seen in CI-like runs):
  // then the focus leaves the webview's frame and F1 goes to the workbench itself.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await quickInput(page).waitFor({ state: 'visible', timeout: attempt < 3 ? 5_000 : 10_000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
      // only a webview's frame is left; blurring the quick input itself would close it
      await page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        if (active?.tagName === 'IFRAME') active.blur();
      });
      if (await quickInput(page).isVisible()) return;
    }
  }
}

/** Row labels the quick input shows now (for error messages). */
async function visibleRows(page: Page): Promise<string[]> {
  return quickInputRows(page).evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
}

/**
 * Runs a command the way a person does: F1, type its palette label ('Category: Title'), pick
 * exactly that entry. Fails naming what the palette offered if the command is not there.
 */
export async function runCommand(page: Page, label: string, options: { timeoutMs?: number } = {}): Promise<void> {
  // A row's accessible name is its label, or the label then ', recently used' / ', <keybinding>'.
  const quoted = JSON.stringify(label);
  const quotedPrefix = JSON.stringify(`${label}, `);
  const rows = '.quick-input-widget .quick-input-list .monaco-list-row';
  const row = page.locator(`${rows}[aria-label=${quoted}], ${rows}[aria-label^=${quotedPrefix}]`);
  // A page that takes the focus as it loads (a walkthrough just opened) can close the palette
  // between its row showing and the click: then the palette is opened again, as a person would.
  for (let opened = 1; ; opened++) {
    if (opened > 1) await page.waitForTimeout(1000); // let the page that took the focus settle
    await openQuickInput(page, `>${label}`);
    try {
      await row.first().waitFor({ state: 'visible', timeout: options.timeoutMs ?? 15_000 });
    } catch {
      if (opened < 3 && !(await quickInput(page).isVisible())) continue;
      const offered = await visibleRows(page);
      await page.keyboard.press('Escape');
      throw new Error(`command "${label}" is not in the command palette; it offered: ${JSON.stringify(offered)}`);
    }
    try {
      await row.first().click({ timeout: opened < 3 ? 5_000 : 15_000 });
      break;
    } catch (e) {
      if (opened >= 3 || (await quickInput(page).isVisible())) throw e;
    }
  }
  await quickInput(page)
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
}

/** Opens a workspace file through quick open (F1 without '>', i.e. Go to File) and waits for its tab. */
export async function openFile(page: Page, relPath: string, options: { timeoutMs?: number } = {}): Promise<void> {
  const timeout = options.timeoutMs ?? 20_000;
  const base = relPath.split('/').pop() as string;
  await openQuickInput(page, relPath);
  const row = quickInputRows(page).filter({ hasText: base });
  try {
    await row.first().waitFor({ state: 'visible', timeout });
  } catch {
    const offered = await visibleRows(page);
    await page.keyboard.press('Escape');
    throw new Error(`quick open found no "${relPath}"; it offered: ${JSON.stringify(offered)}`);
  }
  await page.keyboard.press('Enter');
  await page
    .locator('.editor-group-container.active .tab.active')
    .filter({ hasText: base })
    .waitFor({ state: 'visible', timeout });
  await page.locator('.editor-group-container.active .monaco-editor').first().waitFor({ state: 'visible', timeout });
}

/** Types into the active editor at its cursor (editor auto-closing and suggestions are off in harness settings). */
export async function typeInEditor(page: Page, text: string): Promise<void> {
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  await editor.waitFor({ state: 'visible', timeout: 10_000 });
  const focused = await editor.evaluate((el) => el.contains(document.activeElement));
  if (!focused) await editor.locator('.view-lines').click();
  await page.keyboard.type(text);
}

/** Text of the active editor's visible lines, as rendered. */
export async function editorText(page: Page): Promise<string> {
  const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line');
  const tops = await lines.evaluateAll((els) =>
    els.map((e) => ({
      top: parseFloat((e as HTMLElement).style.top),
      text: (e.textContent ?? '').replace(/\u00a0/g, ' '),
    })),
  );
  return tops
    .sort((a, b) => a.top - b.top)
    .map((l) => l.text)
    .join('\n');
}

/**
 * Waits for a notification toast whose message matches; returns the message text. `orInCenter`:
 * a notification the workbench filed in the notification center without a toast (the status
 * bar's bell then shows a dot; seen right after Clear All Notifications) counts too, found by
 * opening the center once the toast has not come.
 */
export async function waitForNotification(
  page: Page,
  text: RegExp,
  options: { timeoutMs?: number; orInCenter?: boolean } = {},
): Promise<string> {
  const message = page.locator('.notification-list-item-message').filter({ hasText: text });
  // fade-in-done: the toast has finished sliding in, so a screenshot shows it whole.
  const settled = page
    .locator('.notifications-toasts .notification-toast.notification-fade-in-done')
    .filter({ has: message });
  try {
    await settled.first().waitFor({ state: 'visible', timeout: options.timeoutMs ?? 15_000 });
  } catch {
    const shown = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
    if (options.orInCenter) {
      await runCommand(page, 'Notifications: Show Notifications');
      const filed = page.locator('.notifications-center .notification-list-item-message').filter({ hasText: text });
      try {
        await filed.first().waitFor({ state: 'visible', timeout: 5_000 });
        return (await filed.first().innerText()).trim();
      } catch {
        const listed = await page.locator('.notifications-center .notification-list-item-message').allInnerTexts();
        throw new Error(
          `no notification matching ${text}; toasts: ${JSON.stringify(shown)}; notification center: ${JSON.stringify(listed)}`,
        );
      }
    }
    throw new Error(`no notification matching ${text}; shown: ${JSON.stringify(shown)}`);
  }
  return (await settled.first().locator('.notification-list-item-message').innerText()).trim();
}

/** Expands a view's section (e.g. 'Smoke Items' in the Explorer) if it is collapsed. */
export async function expandView(page: Page, viewName: string): Promise<void> {
  const header = page
    .locator('.pane-header')
    .filter({ hasText: new RegExp(`^\\s*${viewName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i') });
  await header.first().waitFor({ state: 'visible', timeout: 15_000 });
  if ((await header.first().getAttribute('aria-expanded')) === 'false') await header.first().click();
}

/** Clicks a tree item by its label (accessible name), after expanding `view` if given. */
export async function clickTreeItem(
  page: Page,
  label: string | RegExp,
  options: { view?: string; timeoutMs?: number } = {},
): Promise<void> {
  if (options.view) await expandView(page, options.view);
  const item = page.getByRole('treeitem', { name: label, exact: typeof label === 'string' });
  try {
    await item.first().waitFor({ state: 'visible', timeout: options.timeoutMs ?? 15_000 });
  } catch {
    const shown = await page.getByRole('treeitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    throw new Error(`no tree item ${String(label)}; visible tree items: ${JSON.stringify(shown)}`);
  }
  await item.first().click();
}

/**
 * Hovers `target` at `position` until `hover` shows, as a person would: the mouse is moved off and
 * back when it has not come in 5 s (a CodeLens arriving above moves the line from under the
 * pointer, and a hover shown elsewhere keeps the editor's from opening), up to three times; then
 * one last wait of 15 s, and a screenshot named `shot` if it never came.
 */
export async function hoverUntil(
  page: Page,
  target: Locator,
  hover: Locator,
  options: { position?: { x: number; y: number }; shot?: string } = {},
): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await page.mouse.move(5, 5);
    await target.hover(options.position ? { position: options.position } : {});
    const shown = await hover
      .first()
      .waitFor({ state: 'visible', timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    if (shown) return;
  }
  await hover
    .first()
    .waitFor({ state: 'visible', timeout: 15_000 })
    .catch(async (e: Error) => {
      if (options.shot) await screenshot(page, options.shot);
      throw e;
    });
}

/**
 * Right-clicks a file in the Explorer and picks a context menu entry. Returns when (performance.now()
 * of this process) the entry was chosen by the click or key press that ran it, for benches.
 */
export async function explorerMenu(page: Page, file: string, entry: string): Promise<number> {
  return treeItemMenu(page, file, entry);
}

/** Right-clicks a tree item of any view (a string: its whole accessible name) and picks an entry. */
export async function treeItemMenu(page: Page, label: string | RegExp, entry: string): Promise<number> {
  const item = page.getByRole('treeitem', { name: label, exact: typeof label === 'string' });
  await item.first().waitFor({ state: 'visible', timeout: 20_000 });
  await item.first().click({ button: 'right' });
  const action = page.locator('.monaco-menu .action-item').filter({ hasText: entry });
  await action.first().waitFor({ state: 'visible', timeout: 10_000 });
  let chosen = performance.now();
  await action.first().click();
  // Monaco's context menu can swallow a click that lands while it is still opening (seen under
  // load): if the menu is still up, the entry is highlighted by the hover, so Enter runs it.
  const menu = page.locator('.context-view .monaco-menu');
  await page.waitForTimeout(500);
  if (await menu.isVisible()) {
    await action.first().hover();
    chosen = performance.now();
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden', timeout: 5_000 });
  }
  return chosen;
}

/**
 * The content frame of the visible webview (panel or view) whose page contains `hasText`.
 * VS Code nests each webview twice: an outer iframe.webview (its host page) holding the
 * extension's HTML in iframe#active-frame. The frame is located by the outer iframe's name (the
 * webview's id), so it stays that webview when others are created or closed later.
 */
export async function webviewFrame(
  page: Page,
  hasText: string | RegExp,
  options: { timeoutMs?: number } = {},
): Promise<FrameLocator> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  const outers = page.locator('iframe.webview.ready');
  for (;;) {
    const count = await outers.count();
    for (let i = 0; i < count; i++) {
      const outer = outers.nth(i);
      if (!(await outer.isVisible())) continue;
      const name = await outer.getAttribute('name');
      const stable = name ? page.locator(`iframe.webview[name=${JSON.stringify(name)}]`) : outer;
      const inner = stable.contentFrame().frameLocator('iframe#active-frame');
      if ((await inner.locator('body').filter({ hasText }).count()) > 0) return inner;
    }
    if (Date.now() > deadline)
      throw new Error(`no visible webview containing ${String(hasText)} (${count} webview frames)`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Reloads the window the way a person does (Developer: Reload Window), which makes the workbench
 * write its state (open editors, webview states) before it goes; a browser refresh
 * (page.reload()) does not wait for that write, so the window may come back as it was some time
 * earlier. Resolves when the new page's status bar shows and, with the runner extension, its new
 * extension host has started; returns that host's pid.
 */
export async function reloadWindow(
  server: CodeServer,
  wb: Workbench,
  options: { timeoutMs?: number } = {},
): Promise<number | undefined> {
  return followWindow(server, wb, () => runCommand(wb.page, 'Developer: Reload Window'), options);
}

/**
 * Runs `trigger`, which makes the window navigate (a reload, or an extension opening another
 * folder in it), and waits for the new window's workbench and extension host.
 */
export async function followWindow(
  server: CodeServer,
  wb: Workbench,
  trigger: () => Promise<unknown>,
  options: { timeoutMs?: number } = {},
): Promise<number | undefined> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const page = wb.page;
  const hostsBefore = new Set(readyExtensionHosts(server).map((h) => h.pid));
  const navigated = page.waitForEvent('framenavigated', {
    predicate: (f) => f === page.mainFrame(),
    timeout: timeoutMs,
  });
  await trigger();
  await navigated;
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
  if (!server.exthostDir) return undefined;
  wb.exthostPid = await until(
    "the reloaded window's extension host (runner ready file)",
    timeoutMs,
    () => readyExtensionHosts(server).find((h) => !hostsBefore.has(h.pid))?.pid,
  );
  return wb.exthostPid;
}
