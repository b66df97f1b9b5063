// Where the e2e tools live. Provisioned by scripts/provision-code-server.sh; the same defaults
// and the same CHAINLENS_CACHE override, so the two stay in step.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '../../..');
export const cacheDir = process.env.CHAINLENS_CACHE ?? join(repoRoot, '.cache');
export const node22 = join(cacheDir, 'node22', 'bin', 'node');
export const codeServerEntry = join(cacheDir, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const chromiumPath = process.env.CHAINLENS_CHROMIUM ?? '/usr/bin/chromium';
export const testResultsDir = join(repoRoot, 'test-results');

/** Fails with the one command that fixes it, rather than a spawn ENOENT later. */
export function assertProvisioned(): void {
  const missing = [node22, codeServerEntry, chromiumPath].filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new Error(`e2e tools missing (${missing.join(', ')}); run: bash scripts/provision-code-server.sh`);
  }
}
