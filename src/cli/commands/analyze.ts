import { resolve } from 'node:path';
import type { CliCommand, CliIO } from '../command';
import { parseCommandArgs, requireOption } from '../args';
import { MODULE_SYMBOL } from '../../core/analysis/symbols';
import type { MetricTriple, ScopeEntry, StepAnalysis } from '../../protocol/analysis';
import { analyzePatches } from '../../app/analysis/analyzePatches';
import { createTreeSitterSymbolIndex } from '../../app/symbols/symbolIndex';
import { UserError } from '../../core/util/errors';

const usage = `usage: chainlens analyze --patch <file> --gold <file> --repo <dir> [--base <rev>] [--threads N] [--json]

Compare a step's patch with its gold patch: files and symbols touched outside gold (overshoot),
left alone where gold changes them (undershoot), Jaccard overlaps, complexity deltas and drift
suggestions. Everything is relative to gold, not proof of a bug; drift labels are suggestions.
  --patch   the step's patch (unified diff)
  --gold    the gold patch (unified diff)
  --repo    a git repository holding the files before both patches
  --base    the revision the patches apply to (default HEAD); files are read with git
  --threads analyse the files on N threads (default: one per core, at most 4, for large patches)
  --json    print the analysis as JSON (the StepAnalysis schema)`;

const options = {
  patch: { type: 'string' },
  gold: { type: 'string' },
  repo: { type: 'string' },
  base: { type: 'string' },
  threads: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

function parseThreads(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(value) || Number(value) < 1 || Number(value) > 64)
    throw new UserError(`--threads must be a number of threads from 1 to 64, not '${value}'`, 'usage');
  return Number(value);
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
      const shown = (name: string, t: MetricTriple, d: number | null, digits = 0) => {
        const v = (x: number | null) => (x === null ? '-' : x.toFixed(digits));
        return `${name} ${v(t.base)}/${v(t.step)}/${v(t.gold)} (${signed(d === null ? null : Number(d.toFixed(digits)))})`;
      };
      out.push(
        `  ${m.file} ${m.symbol}: ${shown('CC', m.cyclomatic, m.delta.cyclomatic)}  ${shown('CogC', m.cognitive, m.delta.cognitive)}  ${shown('HV', m.halsteadVolume, m.delta.halsteadVolume, 1)}  ${shown('LLOC', m.lloc, m.delta.lloc)}`,
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
    const { analysis, baseCommit: base } = await analyzePatches({
      patchPath,
      goldPath,
      repo,
      base: values.base ?? 'HEAD',
      symbols: createTreeSitterSymbolIndex(),
      threads: parseThreads(values.threads),
    });
    io.out(
      values.json
        ? JSON.stringify(analysis, null, 2)
        : formatAnalysis(analysis, `${patchPath} vs gold ${goldPath} at ${base.slice(0, 12)}`),
    );
    return 0;
  },
};
