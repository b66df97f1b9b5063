import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { CliCommand, CliIO } from '../command';
import { parseCommandArgs, requireOption } from '../args';
import { UserError } from '../../core/util/errors';
import { parsePatch } from '../../core/patch/parse';
import type { Patch } from '../../core/patch/types';
import { isPathSafe } from '../../core/patch/paths';
import { analyzeStep } from '../../core/analysis/analyzeStep';
import { createSymbolIndex } from '../../core/analysis/outline';
import { MODULE_SYMBOL } from '../../core/analysis/symbols';
import type { ScopeEntry, StepAnalysis } from '../../protocol/analysis';
import { readUserFile } from '../../infra/files';
import { readBlobs } from '../../infra/git/blobReader';
import { TreeSitterParser } from '../../infra/treesitter/parser';

/** Moved to src/infra/git/blobReader.ts (the editor reads pre-images the same way). */
export { readBlobs };

const usage = `usage: chainlens analyze --patch <file> --gold <file> --repo <dir> [--base <rev>] [--json]

Compare a step's patch with its gold patch: files and symbols touched outside gold (overshoot),
left alone where gold changes them (undershoot), Jaccard overlaps, complexity deltas and drift
suggestions. Everything is relative to gold, not proof of a bug; drift labels are suggestions.
  --patch   the step's patch (unified diff)
  --gold    the gold patch (unified diff)
  --repo    a git repository holding the files before both patches
  --base    the revision the patches apply to (default HEAD); files are read with git
  --json    print the analysis as JSON (the StepAnalysis schema)`;

const options = {
  patch: { type: 'string' },
  gold: { type: 'string' },
  repo: { type: 'string' },
  base: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

function run(cwd: string, args: string[], input?: string): Promise<{ code: number; out: Buffer; err: string }> {
  return new Promise((res, rej) => {
    const p = spawn('git', args, { cwd, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    p.stdout?.on('data', (d: Buffer) => out.push(d));
    p.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', rej);
    p.on('close', (code) => res({ code: code ?? 1, out: Buffer.concat(out), err }));
    if (p.stdin) {
      // git may exit before reading everything (bad revision); its exit code says why, not EPIPE.
      p.stdin.on('error', () => {});
      p.stdin.end(input);
    }
  });
}

async function resolveBase(repo: string, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw new UserError(`--base: invalid revision '${rev}'`, 'usage');
  const { code, out, err } = await run(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).catch(
    (e: Error) => {
      throw new UserError(`--repo ${repo}: cannot run git there (${e.message})`, 'git');
    },
  );
  if (code !== 0) {
    if (/not a git repository/i.test(err)) throw new UserError(`--repo ${repo}: not a git repository`, 'git');
    throw new UserError(`--base: '${rev}' is not a commit in ${repo}`, 'git');
  }
  return out.toString().trim();
}

/** A unified diff from a file; an empty file is an empty patch, any other text must be a diff. */
function readDiff(path: string, flag: string): Patch {
  const text = readUserFile(path, flag);
  const patch = parsePatch(text, path);
  if (patch.files.length === 0 && text.trim() !== '')
    throw new UserError(`${flag} ${path} is not a unified diff (no "diff --git" or "---/+++" file header)`);
  return patch;
}

const n = (x: number | null) => (x === null ? 'n/a' : x.toFixed(2));
const signed = (x: number | null) => (x === null ? 'n/a' : x > 0 ? `+${x}` : `${x}`);

function entry(e: ScopeEntry): string {
  const r = e.ranges.filter((x) => x.side === (e.ranges.some((y) => y.side === 'gold') ? 'gold' : 'step'));
  const lines = r
    .slice(0, 3)
    .map((x) => (x.startLine === x.endLine ? `${x.startLine}` : `${x.startLine}-${x.endLine}`))
    .join(',');
  const side = r[0]?.side === 'gold' ? 'gold lines' : 'lines';
  const what =
    e.symbol === undefined ? e.file : `${e.file} ${e.symbol === MODULE_SYMBOL ? '(top-level code)' : e.symbol}`;
  return lines ? `${what} (${side} ${lines}${r.length > 3 ? ',…' : ''})` : what;
}

export function formatAnalysis(a: StepAnalysis, title: string): string {
  const out = [title, 'Overshoot and undershoot are relative to the gold patch, not proof of a bug.', ''];
  out.push(`files:   Jaccard ${n(a.files.jaccard)}  (step ${a.files.step.length}, gold ${a.files.gold.length})`);
  out.push(
    `  overshoot:  ${a.files.overshoot.length === 0 ? 'none' : ''}`,
    ...a.files.overshoot.map((e) => `    ${entry(e)}`),
  );
  out.push(
    `  undershoot: ${a.files.undershoot.length === 0 ? 'none' : ''}`,
    ...a.files.undershoot.map((e) => `    ${entry(e)}`),
  );
  out.push(
    `symbols: Jaccard ${n(a.symbols.jaccard)}  (functions/classes; step ${a.symbols.step.length}, gold ${a.symbols.gold.length} incl. top-level code)`,
  );
  out.push(
    `  overshoot:  ${a.symbols.overshoot.length === 0 ? 'none' : ''}`,
    ...a.symbols.overshoot.map((e) => `    ${entry(e)}`),
  );
  out.push(
    `  undershoot: ${a.symbols.undershoot.length === 0 ? 'none' : ''}`,
    ...a.symbols.undershoot.map((e) => `    ${entry(e)}`),
  );
  if (a.metrics.length > 0) {
    out.push('', 'metrics (base / step / gold; delta = step - gold):');
    for (const m of a.metrics) {
      const c = m.cyclomatic;
      const l = m.lloc;
      out.push(
        `  ${m.file} ${m.symbol}: CC ${c.base ?? '-'}/${c.step ?? '-'}/${c.gold ?? '-'} (${signed(m.delta.cyclomatic)})  LLOC ${l.base ?? '-'}/${l.step ?? '-'}/${l.gold ?? '-'} (${signed(m.delta.lloc)})`,
      );
    }
  }
  out.push('', `drift suggestions (for a person to confirm): ${a.drift.length === 0 ? 'none' : ''}`);
  for (const s of a.drift) {
    out.push(
      `  ${s.primary ? '*' : ' '} ${s.label}${s.iec ? ' [IEC]' : ''}  ${s.file}:${s.range.startLine} ${s.symbol}`,
    );
    out.push(`      ${s.reason}`);
    for (const e of s.evidence.slice(0, 6))
      out.push(`      ${e.side.padEnd(4)} ${String(e.line).padStart(5)}: ${e.text}`);
  }
  const fileLevel = a.coverage.filter((c) => c.level === 'file');
  out.push(
    '',
    `coverage: ${a.coverage.length - fileLevel.length} file(s) at symbol level${fileLevel.length ? `; file level only: ${fileLevel.map((c) => `${c.file} (${c.note})`).join('; ')}` : ''}`,
  );
  return out.join('\n');
}

export const analyzeCommand: CliCommand = {
  name: 'analyze',
  usage,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values } = parseCommandArgs(argv, options, usage);
    const patchPath = resolve(io.cwd, requireOption(values.patch, '--patch', usage));
    const goldPath = resolve(io.cwd, requireOption(values.gold, '--gold', usage));
    const repo = resolve(io.cwd, requireOption(values.repo, '--repo', usage));
    const stepPatch = readDiff(patchPath, '--patch');
    const goldPatch = readDiff(goldPath, '--gold');
    const base = await resolveBase(repo, values.base ?? 'HEAD');

    const unsafe = [...stepPatch.files, ...goldPatch.files]
      .flatMap((f) => [f.oldPath, f.newPath])
      .filter((p): p is string => p !== null && !isPathSafe(p));
    if (unsafe.length > 0)
      throw new UserError(`the patches name unsafe paths (absolute, '..' or inside .git): ${unsafe.join(', ')}`);

    const paths = [
      ...new Set(
        [...stepPatch.files, ...goldPatch.files]
          .flatMap((f) => [f.oldPath, f.newPath])
          .filter((p): p is string => p !== null),
      ),
    ];
    const blobs = await readBlobs(repo, base, paths);
    const parser = new TreeSitterParser();
    const analysis = await analyzeStep({
      stepPatch,
      goldPatch,
      readFile: async (p) => blobs.get(p),
      symbols: createSymbolIndex(parser),
    });
    io.out(
      values.json
        ? JSON.stringify(analysis, null, 2)
        : formatAnalysis(analysis, `${patchPath} vs gold ${goldPath} at ${base.slice(0, 12)}`),
    );
    return 0;
  },
};
