// Bundles the extension (CommonJS, 'vscode' external) and the CLI into dist/.
// Runtime dependencies are bundled so the .vsix needs no node_modules.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // Native optional addons of ssh2 (used by dockerode for ssh:// hosts) stay out of the bundle;
  // ssh2 falls back to pure JS when they are absent.
  external: ['vscode', 'cpu-features', './crypto/build/Release/sshcrypto.node'],
};

const entries = [{ entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }];
if (existsSync('src/extension.ts')) entries.push({ entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' });
// Trajectory files over 8 MiB are parsed in this worker thread, off the extension host's thread.
if (existsSync('src/infra/trajectories/parseWorker.ts'))
  entries.push({ entryPoints: ['src/infra/trajectories/parseWorker.ts'], outfile: 'dist/trajectory-worker.js' });
if (existsSync('webview-ui/src/main.ts')) {
  entries.push({
    entryPoints: ['webview-ui/src/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    external: [],
  });
}

const contexts = await Promise.all(entries.map((e) => esbuild.context({ ...common, ...e })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}
