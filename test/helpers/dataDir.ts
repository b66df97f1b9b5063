// Tests keep ChainLens's per-user state (docs/run-state.md) in a throw-away data directory instead
// of ~/.local/share/chainlens: imported for its side effect by every helper that makes work trees.
// `npm test` sets CHAINLENS_DATA for the whole run; a single test file run by hand gets its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.CHAINLENS_DATA) {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-data-'));
  process.env.CHAINLENS_DATA = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}

export const testDataDir = (): string => process.env.CHAINLENS_DATA!;
