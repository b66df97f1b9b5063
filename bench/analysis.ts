// Patch analysis at scale, as a user runs it: `chainlens analyze` (the built CLI, its own process)
// on a generated pair of patches over 200 Python files with 25 hunks each per side (5,000 hunks
// in all), next to a process that does nothing but parse the same file versions with
// web-tree-sitter (each file's base, the step's version and gold's version: 600 parses). That
// bare parse is the analysis's floor when it parses every version whole. Sides alternate
// (bench/lib/interleave.ts); the ratio of medians is what holds on a loaded machine.
// analyze shares a large pair's files out between threads (one per core): it runs as it does for
// a user and with --threads 1, and each side's CPU time (all its threads, from bash's `times`) is
// reported next to its wall time, so a speed-up from a second core is told from doing less.
// CHAINLENS_BENCH_BEFORE=<another build's dist/cli.js> adds that build to the same rounds.
// Run: node --import tsx bench/analysis.ts [files=200] [hunksPerFile=25] [reps=5] [result.json]
// BENCH_FUNCTIONS=<n> gives each file n functions instead of two per hunk and four more: with few
// hunks in long files (`BENCH_FUNCTIONS=600 … analysis.ts 50 3`, the shape of most real fixes),
// the incremental parses of the edited versions take a small part of what parsing them whole does.
// The optional fourth argument keeps the first run's `--json` output, to check that a speed-up
// leaves the result byte-identical.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { interleave, report, timedProcess } from './lib/interleave';
import { generatedFunction, type Variant } from './lib/generatedModules';

const ROOT = resolve(__dirname, '..');
const FILES = Number(process.argv[2] ?? 200);
const HUNKS_PER_FILE = Number(process.argv[3] ?? 25);
const REPS = Number(process.argv[4] ?? 5);
const RESULT_JSON = process.argv[5];
const BEFORE = process.env.CHAINLENS_BENCH_BEFORE;
// Edited functions are every other one, so an untouched function keeps hunks apart.
const FUNCS = Math.max(Number(process.env.BENCH_FUNCTIONS ?? 0), 2 * HUNKS_PER_FILE + 4);

function file(variant: Variant, f: number): string {
  let text = `"""Module ${f}."""\nimport os\n\n\n`;
  for (let i = 0; i < FUNCS; i++) {
    // Gold edits HUNKS_PER_FILE functions (every other one); the step as many, shifted by one,
    // so most symbols overlap and a few are overshoot/undershoot on each side.
    const even = i % 2 === 0;
    const edited =
      even &&
      (variant === 'gold' ? i < 2 * HUNKS_PER_FILE : variant === 'step' ? i >= 2 && i < 2 * HUNKS_PER_FILE + 2 : false);
    text += generatedFunction(i, variant, edited);
  }
  return text;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
    cwd: dir,
    maxBuffer: 1 << 30,
  }).toString();
}

/** The raw side: web-tree-sitter alone, every file of a folder parsed from scratch, trees freed. */
function bareParseScript(runtime: string, runtimeWasm: string, grammar: string): string {
  return `
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { Parser, Language } = require(${JSON.stringify(runtime)});
(async () => {
  await Parser.init({ locateFile: () => ${JSON.stringify(runtimeWasm)} });
  const parser = new Parser();
  parser.setLanguage(await Language.load(${JSON.stringify(grammar)}));
  const dir = process.argv[1];
  let nodes = 0;
  for (const name of readdirSync(dir)) {
    const tree = parser.parse(readFileSync(join(dir, name), 'utf8'));
    nodes += tree.rootNode.descendantCount;
    tree.delete();
  }
  console.log(nodes);
})();
`;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-bench-'));
  try {
    const repo = join(dir, 'repo');
    const versions = join(dir, 'versions');
    mkdirSync(repo);
    mkdirSync(versions);
    git(repo, 'init', '-q');
    const write = (variant: Variant) => {
      for (let f = 0; f < FILES; f++) {
        mkdirSync(join(repo, `pkg${f % 10}`), { recursive: true });
        const text = file(variant, f);
        writeFileSync(join(repo, `pkg${f % 10}`, `mod_${f}.py`), text);
        writeFileSync(join(versions, `${variant}_${f}.py`), text);
      }
    };
    write('base');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    const base = git(repo, 'rev-parse', 'HEAD').trim();
    for (const v of ['step', 'gold'] as const) {
      git(repo, 'checkout', '-q', '-B', v, base);
      write(v);
      git(repo, 'commit', '-qam', v);
    }
    const stepDiff = join(dir, 'step.diff');
    const goldDiff = join(dir, 'gold.diff');
    writeFileSync(stepDiff, git(repo, 'diff', base, 'step'));
    writeFileSync(goldDiff, git(repo, 'diff', base, 'gold'));
    git(repo, 'checkout', '-q', base);

    const runtime = require.resolve('web-tree-sitter', { paths: [ROOT] });
    const script = bareParseScript(
      runtime,
      join(dirname(runtime), 'tree-sitter.wasm'),
      require.resolve('tree-sitter-wasms/out/tree-sitter-python.wasm', { paths: [ROOT] }),
    );
    const cli = join(ROOT, 'dist', 'cli.js');
    const analyzeArgs = ['analyze', '--patch', stepDiff, '--gold', goldDiff, '--repo', repo, '--base', base, '--json'];
    const BARE = `web-tree-sitter parse of the ${3 * FILES} versions`;
    const cpu = new Map<string, number[]>();
    const timed = async (name: string, args: string[]) => {
      const r = await timedProcess(process.execPath, args, { cpu: true });
      if (r.code !== 0) throw new Error(`${name} exited ${r.code}: ${r.stderr}`);
      cpu.set(name, [...(cpu.get(name) ?? []), r.cpuMs!]);
      return r;
    };
    let summary = '';
    const analyze = (name: string, build: string, extra: string[]) => ({
      name,
      run: async (i: number) => {
        const r = await timed(name, [build, ...analyzeArgs, ...extra]);
        if (i === 0 && build === cli && extra.length === 0) {
          const a = JSON.parse(r.stdout);
          summary = `result: ${a.symbols.overshoot.length} symbol overshoot, ${a.symbols.undershoot.length} undershoot, ${a.drift.length} drift suggestions, ${a.metrics.length} symbols with metrics`;
          if (RESULT_JSON) writeFileSync(RESULT_JSON, r.stdout);
        }
        return r.ms;
      },
    });
    const measured = await interleave(
      [
        analyze('chainlens analyze --json', cli, []),
        analyze('chainlens analyze --json --threads 1', cli, ['--threads', '1']),
        ...(BEFORE ? [analyze('chainlens analyze --json, CHAINLENS_BENCH_BEFORE', BEFORE, [])] : []),
        {
          name: BARE,
          run: async () => {
            const r = await timed(BARE, ['-e', script, versions]);
            if (!(Number(r.stdout) > 0)) throw new Error(`bare parse failed: ${r.stderr}`);
            return r.ms;
          },
        },
      ],
      REPS,
    );
    const load = loadavg().map((x) => x.toFixed(2));
    const title = `patch analysis, ${FILES} files of ${FUNCS} functions, ${FILES * HUNKS_PER_FILE} hunks per side, ${REPS} rounds, ${availableParallelism()} cores (load average at the end ${load.join(' ')})`;
    console.log(report(`${title}\nwall time:`, measured, BARE));
    console.log(
      report(
        'CPU time (user + system, all threads):',
        [...cpu].map(([name, ms]) => ({ name, ms })),
        BARE,
      ),
    );
    console.log(summary);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
