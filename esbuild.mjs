// Bundles the extension (CommonJS, 'vscode' external) and the CLI into dist/.
// Runtime dependencies are bundled so the .vsix needs no node_modules.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

// dockerode requires gRPC and protobuf (BuildKit sessions, used only by buildImage with BuildKit)
// and docker-modem requires ssh2 (ssh:// engines only) when they load: 1.7 MB of the 2.2 MB they
// bundle, evaluated by every process that talks to Docker before its first request (about 0.2 s of
// `chainlens eval`). Each of those requires becomes a call made where it is used; the code is
// still bundled. A dependency update that changes the line fails the build rather than losing it.
const lazyRequires = [
  {
    file: /dockerode[\\/]lib[\\/]docker\.js$/,
    from: "withSession = require('./session'),",
    to: "withSession = function () { return require('./session').apply(this, arguments); },",
  },
  {
    file: /docker-modem[\\/]lib[\\/]modem\.js$/,
    from: "ssh = require('./ssh'),",
    to: "ssh = function (opt) { return require('./ssh')(opt); },",
  },
];
const lazyRequirePlugin = {
  name: 'lazy-requires',
  setup(build) {
    for (const { file, from, to } of lazyRequires)
      build.onLoad({ filter: file }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(from)) throw new Error(`esbuild.mjs lazy-requires: '${from}' not found in ${args.path}`);
        return { contents: source.replace(from, to), loader: 'js' };
      });
  },
};

// status.cjs loads node:crypto, node:child_process and node:zlib (with the stream, socket and
// cipher modules they bring) only when one of their functions is first called: `status` on a
// clean work tree needs none (no git process, no lock taken, no state folder made, HEAD's commit
// read by a JS inflate), and loading them was a fifth of its start (docs/reference/cli.md). Only
// functions are deferred; importing anything else from them (a class, `constants`) in that bundle
// fails the build rather than the command.
const deferredBuiltinsPlugin = {
  name: 'deferred-builtins',
  setup(build) {
    build.onResolve({ filter: /^node:(crypto|child_process|zlib)$/ }, (args) =>
      args.namespace === 'deferred-builtin'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'deferred-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'deferred-builtin' }, async (args) => {
      const real = await import(args.path);
      const functions = Object.keys(real).filter((k) => /^[a-z]\w*$/.test(k) && typeof real[k] === 'function');
      const lines = [`let loaded;`, `const load = () => (loaded ??= require(${JSON.stringify(args.path)}));`];
      for (const f of functions) lines.push(`export function ${f}(...args) { return load().${f}(...args); }`);
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

// The schemas' fingerprint: every file of src/protocol (where every schema of a state file is
// defined) and zod's version. A state file's check is remembered under it (src/infra/run/
// checkMemo.ts): a build with other schemas checks every file again.
function schemaFingerprint() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (name.endsWith('.ts')) hash.update(`${path}\0`).update(readFileSync(path)).update('\0');
      else if (!name.includes('.')) walk(path);
    }
  };
  walk('src/protocol');
  hash.update(JSON.parse(readFileSync('node_modules/zod/package.json', 'utf8')).version);
  return hash.digest('hex').slice(0, 16);
}

/** @type {esbuild.BuildOptions} */
const common = {
  define: { __CHAINLENS_SCHEMA_FINGERPRINT__: JSON.stringify(schemaFingerprint()) },
  plugins: [lazyRequirePlugin],
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
// small CommonJS stub that prints the help itself, loads dist/cli/status.cjs for `status`, and
// otherwise turns on Node's compile cache where the runtime has it and imports dist/cli/main.mjs, an ES module build split per command (esbuild splitting needs ESM) and
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
  // `chainlens status` in one CommonJS file: no ES module graph of chunks to resolve and link for
  // the command people and scripts run most often (docs/reference/cli.md).
  {
    entryPoints: ['src/cli/statusBin.ts'],
    outfile: 'dist/cli/status.cjs',
    minify: true,
    plugins: [lazyRequirePlugin, deferredBuiltinsPlugin],
  },
  // The same CLI as one CommonJS file, for runtimes without Node's compile cache (Node 20): the
  // stub compiles it from V8's code cache (src/infra/codeCache.ts), which ES modules cannot use.
  // Each command's modules still load only when it runs: esbuild keeps a dynamically imported
  // module's code unevaluated until the import. In dist/ itself, so __dirname is dist/ as the
  // workers expect.
  {
    entryPoints: ['src/cli/bin.ts'],
    outfile: 'dist/cli-main.cjs',
    minify: true,
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
  refuseDynamicImports(['dist/cli-main.cjs', 'dist/cli/status.cjs']);
}

// On Node 20 the bin runs these two bundles through vm.Script (src/infra/codeCache.ts), which has
// no dynamic-import callback: an `import()` esbuild could not bundle (a Node builtin, a package
// left external) would end that command with "A dynamic import callback was not specified", exit
// 70. A static import does the same work; the build fails here instead of the user's command.
function refuseDynamicImports(files) {
  for (const file of files) {
    const found = readFileSync(file, 'latin1').match(/\bimport\((.{0,60})/);
    if (found) throw new Error(`${file} holds a dynamic import (import(${found[1]}…): import it statically`);
  }
}
