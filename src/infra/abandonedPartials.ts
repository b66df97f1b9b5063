import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { processGone } from './process/processIdentity';

/**
 * Removes the entries of `parent` that a killed process was building: ChainLens clones into a
 * temporary name carrying its pid (`.<dir>.chainlens-partial-<pid>`, `<mirror>.partial-<pid>`) and
 * renames it into place when done, so a SIGKILL leaves such a name behind. `pattern` captures the
 * pid; only entries whose process has ended are removed (another checkout may be cloning right
 * now). Returns the names removed.
 */
export function removeAbandonedPartials(parent: string, pattern: RegExp): string[] {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = pattern.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || !processGone(pid, null)) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // left for the next checkout; it does not stand in anyone's way
    }
  }
  return removed;
}
