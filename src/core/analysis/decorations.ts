import type { Decoration, FileDecorations, ScopeEntry, StepAnalysis } from '../../protocol/analysis';
import { GROUP_NAMES } from '../labels/taxonomy';
import { MODULE_SYMBOL } from './symbols';

const RELATIVE = 'Relative to the gold patch, not proof of a bug.';

function where(e: ScopeEntry): string {
  return e.symbol === undefined
    ? e.file
    : e.symbol === MODULE_SYMBOL
      ? `top-level code of ${e.file}`
      : `${e.symbol} (${e.file})`;
}

function goldLines(e: ScopeEntry): string {
  const gold = e.ranges
    .filter((r) => r.side === 'gold')
    .map((r) => (r.startLine === r.endLine ? `${r.startLine}` : `${r.startLine}–${r.endLine}`));
  return gold.length > 0 ? ` (gold lines ${gold.slice(0, 4).join(', ')}${gold.length > 4 ? ', …' : ''})` : '';
}

/**
 * What an editor draws on the step's version of each file (the work tree at the step's end):
 * overshoot on the lines the step changed outside gold's scope, undershoot where gold changes
 * code the step left alone, drift on the evidence lines of each suggestion. Symbol-level entries
 * are used where symbols were mapped; file-level ones only for files analysed at file level.
 */
export function decorationsFor(analysis: StepAnalysis): FileDecorations[] {
  const byFile = new Map<string, Decoration[]>();
  const push = (file: string, d: Decoration) => {
    let list = byFile.get(file);
    if (!list) byFile.set(file, (list = []));
    list.push(d);
  };
  const fileLevel = new Set(analysis.coverage.filter((c) => c.level === 'file').map((c) => c.file));

  const scope = (kind: 'overshoot' | 'undershoot', entries: ScopeEntry[], fileEntries: boolean) => {
    for (const e of entries) {
      if (fileEntries !== (e.symbol === undefined)) continue;
      if (fileEntries && !fileLevel.has(e.file)) continue;
      const hover =
        kind === 'overshoot'
          ? `Overshoot: this step changes ${where(e)}, which the gold patch leaves alone. ${RELATIVE}`
          : `Undershoot: the gold patch changes ${where(e)}${goldLines(e)}; this step leaves it alone. ${RELATIVE}`;
      for (const r of e.ranges.filter((x) => x.side === 'step')) {
        push(e.file, {
          kind,
          startLine: r.startLine,
          endLine: r.endLine,
          hover,
          ...(e.symbol !== undefined ? { symbol: e.symbol } : {}),
        });
      }
    }
  };
  scope('overshoot', analysis.symbols.overshoot, false);
  scope('undershoot', analysis.symbols.undershoot, false);
  scope('overshoot', analysis.files.overshoot, true);
  scope('undershoot', analysis.files.undershoot, true);

  for (const s of analysis.drift) {
    const stepLines = s.evidence.filter((e) => e.side === 'step').map((e) => e.line);
    const startLine = stepLines.length > 0 ? Math.min(...stepLines) : s.range.startLine;
    const endLine = stepLines.length > 0 ? Math.max(...stepLines) : s.range.startLine;
    const ev = s.evidence
      .slice(0, 6)
      .map((e) => `  ${e.side === 'step' ? 'step' : e.side === 'gold' ? 'gold' : 'before'} ${e.line}: ${e.text}`);
    const hover = [
      `Suggested drift: ${s.label} (${s.group} ${GROUP_NAMES[s.group]}${s.iec ? ', input/error contract' : ''}) in ${s.symbol}`,
      s.reason,
      ...ev,
      'A suggestion to confirm or relabel, not a verdict.',
    ].join('\n');
    push(s.file, {
      kind: 'drift',
      startLine,
      endLine,
      hover,
      symbol: s.symbol,
      label: s.label,
      iec: s.iec,
      ...(s.confidence === 'low' ? { confidence: 'low' as const } : {}),
    });
  }

  return [...byFile.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, decorations]) => ({
      file,
      decorations: decorations.sort((a, b) => a.startLine - b.startLine || a.kind.localeCompare(b.kind)),
    }));
}
