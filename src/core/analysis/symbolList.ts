import type { CodeSymbol, SymbolList } from './symbols';

/**
 * Symbols in source order (outer before inner) with a line → innermost symbol table, for a text
 * of `lineCount` lines. A parse tree's outline and a list sent back by the analysis worker answer
 * `symbolAt` from the same table, so they agree line for line.
 */
export class SymbolTable implements SymbolList {
  private readonly byName = new Map<string, CodeSymbol>();
  /** owner[line] = index of the innermost symbol containing it, -1 for top-level code. */
  private readonly owner: Int32Array;

  constructor(
    readonly symbols: readonly CodeSymbol[],
    lineCount: number,
  ) {
    for (const s of symbols) this.byName.set(s.qualifiedName, s);
    this.owner = new Int32Array(lineCount + 2).fill(-1);
    // Outer symbols come first, so inner ones overwrite their lines.
    symbols.forEach((s, i) => this.owner.fill(i, s.startLine, Math.min(s.endLine, lineCount + 1) + 1));
  }

  symbolAt(line: number): CodeSymbol | undefined {
    const i = line >= 0 && line < this.owner.length ? this.owner[line] : -1;
    return i < 0 ? undefined : this.symbols[i];
  }

  find(qualifiedName: string): CodeSymbol | undefined {
    return this.byName.get(qualifiedName);
  }
}

/** Lines of a text as `text.split('\n')` counts them. */
export function lineCountOf(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
