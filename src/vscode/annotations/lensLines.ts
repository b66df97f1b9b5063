// Pure (no 'vscode'): where the CodeLenses of an annotated file go between two parses. VS Code
// asks for every lens again after each edit; parsing a 10,000-line file's outline for each ask was
// most of a keystroke's cost there (bench/decorations.ts). The lines found by the last parse follow
// the edits instead, as the marks do (rangeMapping.ts), while no edit touches a symbol's own first
// line; an edit that does, a missed change or a new analysis sends the next ask back to the parser
// (docs/reference/annotations.md, "While you type").
import { mapSpan, type LineEdit } from '../../core/analysis/rangeMapping';

interface Entry {
  /** The analysis the lines were found for (compared by identity). */
  readonly source: object;
  version: number;
  /** Symbol → its first line (1-based) in the document at `version`; undefined once unsure. */
  lines: Map<string, number> | undefined;
}

export class LensLines {
  private readonly entries = new WeakMap<object, Entry>();

  /** The lines for `document` at `version`, if the last parse's still hold. */
  get(document: object, source: object, version: number): ReadonlyMap<string, number> | undefined {
    const e = this.entries.get(document);
    return e && e.source === source && e.version === version ? e.lines : undefined;
  }

  /** What a parse of `document` at `version` found. */
  set(document: object, source: object, version: number, lines: Map<string, number>): void {
    this.entries.set(document, { source, version, lines });
  }

  /** One change event of `document` (its edits in the order they apply), which made `version`. */
  edited(document: object, version: number, edits: readonly LineEdit[]): void {
    const e = this.entries.get(document);
    if (!e?.lines) return;
    if (e.version + 1 !== version) {
      e.lines = undefined;
      return;
    }
    const next = new Map<string, number>();
    for (const [symbol, line] of e.lines) {
      let at: number | undefined = line;
      for (const edit of edits) {
        if (at >= edit.startLine && at <= edit.endLine) {
          at = undefined;
          break;
        }
        at = mapSpan({ startLine: at, endLine: at }, edit)?.startLine;
        if (at === undefined) break;
      }
      if (at === undefined) {
        e.lines = undefined;
        return;
      }
      next.set(symbol, at);
    }
    e.lines = next;
    e.version = version;
  }
}
