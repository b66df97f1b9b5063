// `npm run test:electron`: the extension-host suites in a VS Code desktop build that
// @vscode/test-electron downloads (into .vscode-test/). For machines that can reach
// update.code.visualstudio.com; the machines this project is tested on cannot (CONTRIBUTING.md),
// so `npm test` runs the same suites in code-server instead (test/e2e/chainlens-api.test.ts).
// Needs a display (xvfb-run on Linux servers), git, and Docker for the evaluation tests.
import { runTests } from '@vscode/test-electron';
import { build } from 'esbuild';
import { join, resolve } from 'node:path';
import { makeDemoWorkspace } from '../e2e/exthost/demoWorkspace';

const repoRoot = resolve(__dirname, '../..');
const version = process.env.CHAINLENS_VSCODE_VERSION ?? '1.104.0';

async function main(): Promise<void> {
  const bundle = join(repoRoot, '.vscode-test', 'chainlens-suites.js');
  await build({
    entryPoints: [join(__dirname, 'suiteEntry.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    outfile: bundle,
    logLevel: 'warning',
  });
  const demo = makeDemoWorkspace();
  try {
    await runTests({
      version,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: bundle,
      launchArgs: [
        demo.dir,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
    });
  } finally {
    demo.remove();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
