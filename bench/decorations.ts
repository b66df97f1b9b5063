// Drawing annotations on a 10,000-line file in a real VS Code (code-server + Chromium): a one-step
// chain whose gold patch and work-tree patch touch about 700 of the file's ~900 functions, checked
// out with the CLI, then bench/decorations.suite.ts times, inside the extension host, ChainLens's
// drawing (decorations of three kinds + the Problems mirror) against setDecorations and a
// DiagnosticCollection given the same ranges and entries, and an edit at the top of the annotated
// file against the same edit in an untitled copy carrying the same decorations and diagnostics,
// and in the annotated file itself with ChainLens's marks hidden and the same marks set raw (what
// VS Code itself spends on a file in a git repository, which an untitled copy is not).
// Run: node --import tsx bench/decorations.ts   (after `npm run build`; provisions nothing)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertSuitePassed,
  openChainLensWorkbench,
  repoRoot,
  runExtensionHostSuite,
  tempWorkspace,
} from '../test/e2e/harness';

const LINES = 10_000;

type Variant = 'base' | 'gold' | 'step';

/**
 * One function of the file. By i % 4: 0 both patches change it differently (drift: gold raises on
 * None, the step falls back to 0), 1 only gold changes it (undershoot), 2 only the step does
 * (overshoot, with a print), 3 nobody.
 */
function fn(i: number, v: Variant): string {
  const role = i % 4;
  const gate =
    role === 0 && v === 'gold'
      ? `    if value is None:\n        raise ValueError("f_${i}: value is required")\n`
      : role === 0 && v === 'step'
        ? `    value = value or 0\n`
        : '';
  const ret = role === 1 && v === 'gold' ? 'total + value' : 'total + 1';
  const effect = role === 2 && v === 'step' ? `    print("f_${i}", total)\n` : '';
  return `def f_${i}(value, options=None):\n    """Item ${i}."""\n${gate}    total = 0\n    for k in range(${(i % 5) + 2}):\n        if k % 2 and options:\n            total += options.get(k, k)\n        else:\n            total -= k\n${effect}    return ${ret}\n\n\n`;
}

function bigFile(v: Variant): string {
  let text = '"""A generated module for the decoration benchmark."""\n\n\n';
  for (let i = 0; text.split('\n').length < LINES; i++) text += fn(i, v);
  return text;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
    cwd: dir,
    maxBuffer: 1 << 28,
  }).toString();
}

/** The repository at base, a chain whose one step's gold patch is the gold variant, checked out with the CLI; the step's work in the work tree, unsaved to git. */
function makeWorkspace(dir: string): void {
  const source = join(dir, 'source');
  mkdirSync(join(source, 'pkg'), { recursive: true });
  git(source, 'init', '-q');
  writeFileSync(join(source, 'pkg', 'big.py'), bigFile('base'));
  git(source, 'add', '-A');
  git(source, 'commit', '-qm', 'base');
  const base = git(source, 'rev-parse', 'HEAD').trim();
  writeFileSync(join(source, 'pkg', 'big.py'), bigFile('gold'));
  const gold = git(source, 'diff');
  git(source, 'checkout', '-q', '--', '.');
  const chain = {
    continuous_id: 'bench_decorations',
    repo: 'bench/decorations',
    base_commit: base,
    bug_fixes: [
      {
        order: 1,
        swebench_instance_id: 'bench__decorations-1',
        problem_statement: 'Values may be None.',
        patch: gold,
        test_patch: '',
        FAIL_TO_PASS: ['tests/test_big.py::test_none'],
        PASS_TO_PASS: [],
      },
    ],
  };
  const chainFile = join(dir, 'bench.chain.json');
  writeFileSync(chainFile, JSON.stringify(chain));
  const work = join(dir, 'work');
  execFileSync(
    process.execPath,
    [join(repoRoot, 'dist', 'cli.js'), 'checkout', chainFile, '--repo', source, '--dir', work],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  writeFileSync(join(work, 'pkg', 'big.py'), bigFile('step'));
}

async function main(): Promise<void> {
  const fx = await openChainLensWorkbench({
    workspace: () => {
      const ws = tempWorkspace('chainlens-bench-decorations-', makeWorkspace);
      return { dir: join(ws.dir, 'work'), remove: ws.remove };
    },
  });
  try {
    const report = await runExtensionHostSuite(fx.server, join(__dirname, 'decorations.suite.ts'), {
      timeoutMs: 600_000,
      testTimeoutMs: 300_000,
    });
    assertSuitePassed(report);
    const r = JSON.parse(readFileSync(join(fx.workspace.dir, '.git', 'chainlens-bench-decorations.json'), 'utf8')) as {
      lines: number;
      decorations: number;
      byKind: Record<string, number>;
      diagnostics: number;
      annotateMs: number;
      chainlensDrawMs: number;
      chainlensUnchangedMs: number;
      rawDrawMs: number;
      editMs: number;
      rawEditMs: number;
      hiddenEditMs: number;
      rounds: number;
      editRounds: number;
    };
    const kinds = Object.entries(r.byKind)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    console.log(
      [
        `file: ${r.lines} lines, ${r.decorations} decorations (${kinds}), ${r.diagnostics} diagnostics; medians of ${r.rounds} interleaved rounds`,
        `annotate the step (analysis + draw + Problems), as "Annotate Step" does: ${r.annotateMs.toFixed(0)} ms`,
        `draw of marks new to ChainLens (decorations + Problems mirror): ChainLens ${r.chainlensDrawMs.toFixed(1)} ms vs raw setDecorations + DiagnosticCollection.set of the same ${r.rawDrawMs.toFixed(1)} ms = ${(r.chainlensDrawMs / r.rawDrawMs).toFixed(2)}x`,
        `the same draw again with nothing changed (ChainLens sends nothing): ${r.chainlensUnchangedMs.toFixed(1)} ms`,
        `one edit at the top (every mark below shifts; medians of ${r.editRounds} bursts of 10 per side, in turn): ${r.editMs.toFixed(1)} ms vs ${r.rawEditMs.toFixed(1)} ms in an untitled copy with the same marks = ${(r.editMs / r.rawEditMs).toFixed(2)}x`,
        `  the same edit in the annotated file itself with ChainLens's marks hidden and the same marks set raw: ${r.hiddenEditMs.toFixed(1)} ms; ChainLens's own part ${(r.editMs / r.hiddenEditMs).toFixed(2)}x, VS Code's for a file in a repository ${(r.hiddenEditMs / r.rawEditMs).toFixed(2)}x`,
      ].join('\n'),
    );
  } finally {
    await fx.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
