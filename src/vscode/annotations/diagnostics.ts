// Every annotation as a Diagnostic too (Problems panel, F8, screen readers), in every file the
// analysis names, opened or not, with related information at the gold location.
import * as vscode from 'vscode';
import type { Decoration } from '../../protocol/analysis';
import type { StepAnnotations } from './analysisSource';
import { goldUri } from './goldDocuments';

const NAMES = { overshoot: 'Overshoot', undershoot: 'Undershoot', drift: 'Suggested drift' } as const;

/** Gold-side lines an annotation refers to (undershoot: gold's change; drift: gold evidence). */
function goldLines(a: StepAnnotations, file: string, d: Decoration): { startLine: number; endLine: number } | undefined {
  if (d.kind === 'undershoot') {
    const entry = [...a.analysis.symbols.undershoot, ...a.analysis.files.undershoot].find((e) => e.file === file && e.symbol === d.symbol);
    const r = entry?.ranges.find((x) => x.side === 'gold');
    return r ? { startLine: r.startLine, endLine: r.endLine } : undefined;
  }
  if (d.kind === 'drift') {
    const s = a.analysis.drift.find((x) => x.file === file && x.symbol === d.symbol && x.label === d.label);
    const lines = s?.evidence.filter((e) => e.side === 'gold').map((e) => e.line) ?? [];
    return lines.length > 0 ? { startLine: Math.min(...lines), endLine: Math.max(...lines) } : undefined;
  }
  return undefined;
}

export function diagnosticsFor(a: StepAnnotations, file: string, list: readonly Decoration[]): vscode.Diagnostic[] {
  return list.map((d) => {
    const range = new vscode.Range(d.startLine - 1, 0, d.endLine - 1, Number.MAX_SAFE_INTEGER);
    const text = d.hover.split('\n');
    const message = d.kind === 'drift' ? `${text[0]}. ${text[1] ?? ''} (a suggestion, not a verdict)` : text[0];
    const diag = new vscode.Diagnostic(range, message, d.kind === 'drift' && !d.iec ? vscode.DiagnosticSeverity.Hint : vscode.DiagnosticSeverity.Information);
    diag.source = 'ChainLens';
    diag.code = `${d.kind}${d.label ? `: ${d.label}` : ''}`;
    const gold = goldLines(a, file, d);
    const at = gold ? new vscode.Range(gold.startLine - 1, 0, gold.endLine - 1, 0) : new vscode.Range(0, 0, 0, 0);
    const what = gold
      ? `the gold patch (step ${a.order}) here`
      : d.kind === 'drift'
        ? `the gold version of ${file} (step ${a.order})`
        : `the gold version of ${file} (step ${a.order}) leaves ${d.symbol ?? 'this'} as it was`;
    diag.relatedInformation = [new vscode.DiagnosticRelatedInformation(new vscode.Location(goldUri(a, file), at), `${NAMES[d.kind]}: ${what}`)];
    return diag;
  });
}
