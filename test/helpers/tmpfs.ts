// A small tmpfs to fill up: a real full disk (ENOSPC, short writes) on demand. Mounting needs
// root (the test machine and CI run as root); `skip` says why a run without it cannot test this.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, ftruncateSync, writeSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PAGE = 4096;

export const tmpfsSkip: string | false =
  process.platform !== 'linux' || process.getuid?.() !== 0 ? 'mounting a tmpfs needs root on Linux' : false;

export interface Tmpfs {
  dir: string;
  /** Fills the file system, then frees `pages` pages again: the next writes find that much room. */
  fill(pages: number): void;
  /** Removes the filler: room again. */
  free(): void;
  unmount(): void;
}

export function mountTmpfs(sizeKb: number): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0700`, 'tmpfs', dir]);
  const filler = join(dir, '.filler');
  return {
    dir,
    fill(pages) {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(PAGE, 7);
      try {
        for (;;) if (writeSync(fd, chunk) < PAGE) break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      }
      const size = statSync(filler).size;
      ftruncateSync(fd, Math.max(0, Math.floor(size / PAGE) * PAGE - pages * PAGE));
      closeSync(fd);
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
