// Bundles the extension (CommonJS, 'vscode' external) and the CLI into dist/.
// Runtime dependencies are bundled so the .vsix needs no node_modules.
import * as esbuild from 'esbuild';
import { existsSync, rmSync } from 'node:fs';

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

// The CLI starts on every call, so it loads only what its command uses: dist/cli.js (the bin) is a
// small CommonJS stub that turns on Node's compile cache where the runtime has it and imports
// dist/cli/main.mjs, an ES module build split per command (esbuild splitting needs ESM) and
// minified. Code bundled from CommonJS packages, and code written for a CommonJS bundle in dist/,
// expects require, __filename and __dirname: each chunk defines them, __dirname being dist/ like
// the other bundles (dist/trajectory-worker.js is found beside it). See docs/reference/cli.md.
const cliShims = [
  "import { createRequire as __chainlensRequire } from 'node:module';",
  "import { fileURLToPath as __chainlensPath } from 'node:url';",
  "import { dirname as __chainlensDir } from 'node:path';",
  'const require = __chainlensRequire(import.meta.url);',
  'const __filename = __chainlensPath(import.meta.url);',
  'const __dirname = __chainlensDir(__chainlensDir(__filename));',
].join('\n');
const entries = [
  {
    entryPoints: { main: 'src/cli/bin.ts' },
    outdir: 'dist/cli',
    format: 'esm',
    splitting: true,
    minify: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    banner: { js: cliShims },
  },
  {
    entryPoints: ['src/cli/stub.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    sourcemap: false,
    minify: true,
  },
];
if (existsSync('src/extension.ts')) entries.push({ entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' });
// Trajectory files over 8 MiB are parsed in this worker thread, off the extension host's thread.
if (existsSync('src/infra/trajectories/parseWorker.ts'))
  entries.push({ entryPoints: ['src/infra/trajectories/parseWorker.ts'], outfile: 'dist/trajectory-worker.js' });
// The editor's analysis (tree-sitter, outlines, metrics, drift) runs in this worker thread.
if (existsSync('src/app/analysis/analysisWorker.ts'))
  entries.push({ entryPoints: ['src/app/analysis/analysisWorker.ts'], outfile: 'dist/analysis-worker.js' });
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

// The CLI's chunks are named by content hash: without this, every build would leave the previous
// build's chunks behind in dist/cli/ (and in a .vsix made from it).
if (!watch) rmSync('dist/cli', { recursive: true, force: true });
const contexts = await Promise.all(entries.map((e) => esbuild.context({ ...common, ...e })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}
