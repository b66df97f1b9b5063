// code-server's own file dialogs (the "simple" dialog: a quick input with a path box), driven the
// way a person types into them.
//
// The dialog shows first and fills its box with the start folder a moment later, once it has read
// that folder. A path typed before then is overwritten: Enter then accepts the start folder, and an
// Open dialog answers "Please select a file" and stays open (seen on a loaded CI machine, every run).
// So every helper here waits for the start folder before typing, and checks the box still holds
// the path before accepting it.
import type { Page } from 'playwright-core';
import { screenshot } from './workbench';

const BOX = '.quick-input-widget input.input';
const TITLE = '.quick-input-widget .quick-input-title';
// VS Code's progress bar of a quick input: shown (class `active`) while the dialog reads a folder.
const BUSY = '.quick-input-widget .monaco-progress-container.active';

/**
 * The folder the dialog starts at, once it has settled there: the box is filled, has held one
 * value for three reads 250 ms apart (it may show a parent folder first), and the dialog's
 * progress bar is idle.
 */
export async function fileDialogStart(page: Page): Promise<string> {
  const box = page.locator(BOX);
  await box.waitFor({ state: 'visible', timeout: 20_000 });
  const until = Date.now() + 20_000;
  let last = '';
  let same = 0;
  while (Date.now() < until) {
    await page.waitForTimeout(250);
    const value = await box.inputValue();
    const busy = await page.locator(BUSY).isVisible();
    same = value && value === last && !busy ? same + 1 : 0;
    last = value;
    if (same >= 2) return value;
  }
  throw new Error(`the file dialog did not settle on a start folder in 20 s (its box holds "${last}")`);
}

/** Holds `path` in the box for two reads 250 ms apart: the dialog has stopped rewriting it. */
async function boxSettlesOn(page: Page, path: string): Promise<boolean> {
  const box = page.locator(BOX);
  for (let read = 0; read < 2; read++) {
    await page.waitForTimeout(250);
    if ((await box.inputValue()) !== path) return false;
  }
  return true;
}

/**
 * Types `path` into the open file dialog and accepts it; resolves once the dialog has gone or a
 * next dialog (another title) has taken its place. Tries three times before it fails, with a
 * screenshot of the dialog as it stood.
 */
export async function acceptInFileDialog(page: Page, path: string): Promise<void> {
  await fileDialogStart(page);
  const box = page.locator(BOX);
  const title = (
    await page
      .locator(TITLE)
      .innerText()
      .catch(() => '')
  ).trim();
  for (let attempt = 1; attempt <= 3; attempt++) {
    await box.fill(path);
    if (!(await boxSettlesOn(page, path))) continue;
    await box.press('Enter');
    const accepted = await page
      .waitForFunction(
        ([boxSel, titleSel, before]) => {
          const input = document.querySelector(boxSel) as HTMLInputElement | null;
          const widget = input?.closest('.quick-input-widget') as HTMLElement | null;
          if (!input || !widget || widget.style.display === 'none' || widget.offsetParent === null) return true;
          return (document.querySelector(titleSel)?.textContent ?? '').trim() !== before;
        },
        [BOX, TITLE, title] as const,
        { timeout: 5_000 },
      )
      .then(
        () => true,
        () => false,
      );
    if (accepted) return;
  }
  const shot = await screenshot(page, 'file-dialog-stuck');
  throw new Error(`the file dialog "${title}" did not accept ${path} in three tries (see ${shot})`);
}
