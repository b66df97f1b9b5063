// Every annotation as a Diagnostic too (Problems panel, F8, screen readers), in every file the
// analysis names, opened or not, with related information at the gold location.
import * as vscode from 'vscode';
import type { Decoration } from '../../protocol/analysis';
import type { StepAnnotations } from '../../app/analysis/annotateStep';
import { documentUri } from '../documents/chainLensDocuments';
import { annotationNotes } from './annotationNotes';

const NAMES = { overshoot: 'Not in gold', undershoot: 'Gold changes this', drift: 'Suggested drift' } as const;

type Lines = { startLine: number; endLine: number };

/**
 * Gold-side lines per annotation target (undershoot: gold's change; drift: gold evidence), indexed
 * once per analysis: looking each one up in the lists made a redraw quadratic in the marks.
 */
function goldLinesIndex(a: StepAnnotations): Map<string, Lines> {
  const index = new Map<string, Lines>();
  for (const e of [...a.analysis.symbols.undershoot, ...a.analysis.files.undershoot]) {
    const key = `undershoot\0${e.file}\0${e.symbol ?? ''}`;
    const r = e.ranges.find((x) => x.side === 'gold');
    if (r && !index.has(key)) index.set(key, { startLine: r.startLine, endLine: r.endLine });
  }
  for (const s of a.analysis.drift) {
    const key = `drift\0${s.file}\0${s.symbol}\0${s.label}`;
    const lines = s.evidence.filter((e) => e.side === 'gold').map((e) => e.line);
    if (lines.length > 0 && !index.has(key))
      index.set(key, { startLine: Math.min(...lines), endLine: Math.max(...lines) });
  }
  return index;
}

const indexes = new WeakMap<StepAnnotations, Map<string, Lines>>();

function goldLines(a: StepAnnotations, file: string, d: Decoration): Lines | undefined {
  let index = indexes.get(a);
  if (!index) indexes.set(a, (index = goldLinesIndex(a)));
  if (d.kind === 'undershoot') return index.get(`undershoot\0${file}\0${d.symbol ?? ''}`);
  if (d.kind === 'drift') return index.get(`drift\0${file}\0${d.symbol}\0${d.label}`);
  return undefined;
}

/**
 * The Problems entries of one file, one per note (annotationNotes.ts): VS Code shows the same
 * entries in the hover of the marked lines, so this is the one place an annotation is explained.
 */
export function diagnosticsFor(a: StepAnnotations, file: string, list: readonly Decoration[]): vscode.Diagnostic[] {
  const gold = documentUri({ kind: 'version', runId: a.runId, step: a.order, version: 'gold', path: file });
  return annotationNotes(file, list, a.analysis.drift).map((note) => {
    const d = note.decorations[0];
    const range = new vscode.Range(note.startLine - 1, 0, note.endLine - 1, Number.MAX_SAFE_INTEGER);
    // Information, low confidence included: a Hint is not listed in the Problems panel and its
    // hover sits on a "…" at the range's start only; an Information entry is listed and hovering
    // any marked line explains it. Low confidence stays quiet in the drawing (painter.ts) and
    // says so in its code.
    const diag = new vscode.Diagnostic(range, note.message, vscode.DiagnosticSeverity.Information);
    diag.source = 'ChainLens';
    diag.code = note.code;
    const lines = goldLines(a, file, d);
    const at = lines ? new vscode.Range(lines.startLine - 1, 0, lines.endLine - 1, 0) : new vscode.Range(0, 0, 0, 0);
    const what = lines
      ? `the gold patch (step ${a.order}) here`
      : d.kind === 'drift'
        ? `the gold version of ${file} (step ${a.order})`
        : `the gold version of ${file} (step ${a.order}) leaves ${d.symbol ?? 'this'} as it was`;
    diag.relatedInformation = [
      new vscode.DiagnosticRelatedInformation(new vscode.Location(gold, at), `${NAMES[d.kind]}: ${what}`),
    ];
    return diag;
  });
}
