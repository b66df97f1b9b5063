// `npm run package`: builds chainlens-<version>.vsix with @vscode/vsce, without touching dist/
// (other work, e.g. a running e2e test, may be using it). Production bundles are built by
// esbuild.mjs in a scratch folder, then a clean staging folder gets package.json (dependencies
// trimmed to the two packages the bundle loads at run time), media, the bundles and those two
// packages; vsce packages that, filtered by .vscodeignore. Prints the .vsix path and size.
//   node scripts/package.mjs [--out <file.vsix>]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const outArg = process.argv.indexOf('--out');
const out = resolve(outArg > 0 ? process.argv[outArg + 1] : join(repo, `${manifest.name}-${manifest.version}.vsix`));
/** Loaded with require() at run time, next to dist/ (see src/infra/treesitter/parser.ts). */
const RUNTIME_PACKAGES = ['web-tree-sitter', 'tree-sitter-wasms'];

const scratch = mkdtempSync(join(tmpdir(), 'chainlens-package-'));
try {
  // 1. Production bundles from the repository's own esbuild.mjs, run in a folder that links the sources.
  const build = join(scratch, 'build');
  mkdirSync(build);
  for (const entry of ['src', 'webview-ui', 'node_modules', 'tsconfig.json', 'esbuild.mjs', 'package.json'])
    symlinkSync(join(repo, entry), join(build, entry));
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: build, stdio: 'inherit' });

  // 2. The extension folder as it will be installed.
  const stage = join(scratch, 'extension');
  mkdirSync(join(stage, 'node_modules'), { recursive: true });
  const dependencies = Object.fromEntries(RUNTIME_PACKAGES.map((p) => [p, manifest.dependencies[p]]));
  writeFileSync(
    join(stage, 'package.json'),
    `${JSON.stringify({ ...manifest, dependencies, devDependencies: {}, scripts: {} }, null, 2)}\n`,
  );
  for (const file of ['README.md', 'CHANGELOG.md', '.vscodeignore']) cpSync(join(repo, file), join(stage, file));
  cpSync(join(repo, 'media'), join(stage, 'media'), { recursive: true });
  cpSync(join(build, 'dist'), join(stage, 'dist'), { recursive: true });
  for (const p of RUNTIME_PACKAGES)
    cpSync(join(repo, 'node_modules', p), join(stage, 'node_modules', p), { recursive: true });

  // 3. vsce: dependencies from `npm list --production` (just the two), filtered by .vscodeignore.
  const vsce = join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--allow-missing-repository', '--skip-license', '--out', out], {
    cwd: stage,
    stdio: 'inherit',
  });
  console.log(`${out}: ${(statSync(out).size / 1024 / 1024).toFixed(2)} MB`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
