// Patch analysis at scale: a generated pair of patches over 200 Python files with 5,000 hunks
// each, analysed end to end (parse, pre-images from git, symbol mapping, scope, drift), next to
// the raw `git diff` that produced the same patches, measured in the same run.
// Run: node --import tsx bench/analysis.ts [files=200] [hunksPerFile=25] [result.json]
// The optional third argument writes the full analysis as JSON, to check that a speed-up leaves
// the result byte-identical.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { analyzeStep } from '../src/core/analysis/analyzeStep';
import { createSymbolIndex } from '../src/core/analysis/outline';
import { parsePatch } from '../src/core/patch/parse';
import { readBlobs } from '../src/infra/git/blobReader';
import { TreeSitterParser } from '../src/infra/treesitter/parser';

const FILES = Number(process.argv[2] ?? 200);
const HUNKS_PER_FILE = Number(process.argv[3] ?? 25);
const RESULT_JSON = process.argv[4];
// Edited functions are every other one, so an untouched function keeps hunks apart.
const FUNCS = 2 * HUNKS_PER_FILE + 4;

function fn(i: number, variant: 'base' | 'step' | 'gold', edited: boolean): string {
  const check =
    !edited || variant === 'base'
      ? ''
      : variant === 'gold'
        ? `    if value is None:\n        raise ValueError("value ${i}")\n`
        : `    value = value or 0\n`;
  const effect = edited && variant === 'step' && i % 5 === 0 ? `    print("f${i}", value)\n` : '';
  return (
    `def func_${i}(value, options=None):\n` +
    `    """Compute item ${i}."""\n` +
    check +
    `    total = 0\n` +
    `    for k in range(${(i % 7) + 2}):\n` +
    `        if k % 2 and options:\n` +
    `            total += options.get(k, k)\n` +
    `        else:\n` +
    `            total -= k\n` +
    effect +
    `    return total + ${edited && variant !== 'base' ? (variant === 'gold' ? 'value' : 'int(value)') : '1'}\n\n\n`
  );
}

function file(variant: 'base' | 'step' | 'gold', f: number): string {
  let text = `"""Module ${f}."""\nimport os\n\n\n`;
  for (let i = 0; i < FUNCS; i++) {
    // Gold edits HUNKS_PER_FILE functions (every other one); the step as many, shifted by one,
    // so most symbols overlap and a few are overshoot/undershoot on each side.
    const even = i % 2 === 0;
    const edited =
      even &&
      (variant === 'gold' ? i < 2 * HUNKS_PER_FILE : variant === 'step' ? i >= 2 && i < 2 * HUNKS_PER_FILE + 2 : false);
    text += fn(i, variant, edited);
  }
  return text;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
    cwd: dir,
    maxBuffer: 1 << 30,
  }).toString();
}

function ms(t0: number): number {
  return performance.now() - t0;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-bench-'));
  try {
    git(dir, 'init', '-q');
    const write = (variant: 'base' | 'step' | 'gold') => {
      for (let f = 0; f < FILES; f++) {
        mkdirSync(join(dir, `pkg${f % 10}`), { recursive: true });
        writeFileSync(join(dir, `pkg${f % 10}`, `mod_${f}.py`), file(variant, f));
      }
    };
    write('base');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'base');
    const base = git(dir, 'rev-parse', 'HEAD').trim();
    for (const v of ['step', 'gold'] as const) {
      git(dir, 'checkout', '-q', '-B', v, base);
      write(v);
      git(dir, 'commit', '-qam', v);
    }

    // Raw tool: git diff of both patches, as ChainLens itself would obtain them.
    let t0 = performance.now();
    const stepText = git(dir, 'diff', base, 'step');
    const goldText = git(dir, 'diff', base, 'gold');
    const gitDiffMs = ms(t0);

    t0 = performance.now();
    const stepPatch = parsePatch(stepText, 'step');
    const goldPatch = parsePatch(goldText, 'gold');
    const parseMs = ms(t0);
    const hunks = (p: typeof stepPatch) => p.files.reduce((n, f) => n + f.hunks.length, 0);

    t0 = performance.now();
    const paths = [...new Set([...stepPatch.files, ...goldPatch.files].map((f) => f.oldPath!))];
    const blobs = await readBlobs(dir, base, paths);
    const readMs = ms(t0);

    const parser = new TreeSitterParser();
    t0 = performance.now();
    await parser.parse('python', 'x = 1\n'); // grammar load, reported apart
    const grammarMs = ms(t0);

    t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const analysis = await analyzeStep({
      stepPatch,
      goldPatch,
      readFile: async (p) => blobs.get(p),
      symbols: createSymbolIndex(parser),
    });
    const analyzeMs = ms(t0);
    // CPU time of this process alone: steadier than wall time when other work shares the machine.
    const cpu = process.cpuUsage(cpu0);
    const analyzeCpuMs = (cpu.user + cpu.system) / 1000;

    const total = parseMs + readMs + analyzeMs;
    const lines = [
      `patch pair: ${stepPatch.files.length} files, step ${hunks(stepPatch)} hunks / gold ${hunks(goldPatch)} hunks (${((stepText.length + goldText.length) / 1e6).toFixed(1)} MB of diff)`,
      `git diff (both patches):         ${gitDiffMs.toFixed(0)} ms`,
      `parse both patches:              ${parseMs.toFixed(0)} ms`,
      `read pre-images (git cat-file):  ${readMs.toFixed(0)} ms`,
      `python grammar load (once):      ${grammarMs.toFixed(0)} ms`,
      `analysis (post-images, tree-sitter parse of 3 versions/file, symbol mapping, scope, metrics, drift): ${analyzeMs.toFixed(0)} ms (CPU ${analyzeCpuMs.toFixed(0)} ms)`,
      `total (parse + read + analysis): ${total.toFixed(0)} ms = ${(total / gitDiffMs).toFixed(1)}x the git diff`,
      `result: file Jaccard ${analysis.files.jaccard?.toFixed(2)}, symbol Jaccard ${analysis.symbols.jaccard?.toFixed(3)}, ${analysis.symbols.overshoot.length} symbol overshoot, ${analysis.symbols.undershoot.length} symbol undershoot, ${analysis.drift.length} drift suggestions, ${analysis.metrics.length} symbols with metrics`,
    ];
    console.log(lines.join('\n'));
    if (RESULT_JSON) writeFileSync(RESULT_JSON, JSON.stringify(analysis));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
