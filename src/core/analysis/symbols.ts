import type { SymbolKind } from '../../protocol/analysis';
import type { FunctionMaintainability } from './maintainability/types';
import type { LanguageId, SyntaxEdit } from './syntax';

/** Top-level code (imports, constants, module docstring) is attributed to this pseudo-symbol. */
export const MODULE_SYMBOL = '<module>';

export interface CodeSymbol {
  readonly name: string;
  /** `Class.method`, `outer.inner`; a repeated name gets `#2`, `#3` in source order. */
  readonly qualifiedName: string;
  readonly kind: SymbolKind;
  /** 1-based, inclusive; decorators included. */
  readonly startLine: number;
  readonly endLine: number;
}

/** One observation inside a symbol: compared by key between two versions, shown by line. */
export interface Fact {
  readonly key: string;
  /** Lines (1-based) a person should look at, most telling first. */
  readonly lines: readonly number[];
}

/** What drift heuristics and metrics read about one version of one symbol. */
export interface SymbolDetail {
  readonly symbol: CodeSymbol;
  /** Structure and tokens without comments and docstrings: equal means "same code". */
  readonly signature: string;
  /** Raw text of the symbol, to tell "identical" from "differs only in comments/layout". */
  readonly text: string;
  readonly cyclomatic: number;
  readonly lloc: number;
  /** Early exits: raise/return under a condition, assert. Key = conditions => exit. */
  readonly gates: readonly Fact[];
  /** Statements that compute what the gates test (a backward slice over names). */
  readonly gateInputs: readonly Fact[];
  /** dict.get(k, d), x or d, int(x)-style coercions. */
  readonly fallbacks: readonly Fact[];
  /** except/catch clauses, finally, raises inside handlers. */
  readonly handlers: readonly Fact[];
  /** Exception types raised anywhere (compared as a set). */
  readonly raised: readonly Fact[];
  /** Return value shapes (compared as a set). */
  readonly returns: readonly Fact[];
  /** Output, logging, global and argument/attribute writes. */
  readonly effects: readonly Fact[];
  /** pass / NotImplementedError / TODO bodies. */
  readonly stubs: readonly Fact[];
  /** The body is only a not-implemented statement (a PR0 skeleton's): unfinished, nothing else. */
  readonly notImplemented: boolean;
}

/** The symbols of one version of one file: what the editor's lenses and symbol commands read. */
export interface SymbolList {
  readonly symbols: readonly CodeSymbol[];
  /** The innermost symbol containing the line, undefined for top-level code. */
  symbolAt(line: number): CodeSymbol | undefined;
  find(qualifiedName: string): CodeSymbol | undefined;
}

/** Symbol lists of file texts, wherever they are parsed (the editor: its analysis worker). */
export interface SymbolLookup {
  /** Undefined when no grammar exists for the path. */
  symbolsOf(path: string, text: string): Promise<SymbolList | undefined>;
}

/** The symbols of one version of one file, with details on demand. */
export interface SourceOutline extends SymbolList {
  readonly language: LanguageId;
  detail(qualifiedName: string): SymbolDetail | undefined;
  /** `detail`'s cyclomatic and lloc alone, for a version whose other details nobody reads. */
  metrics(qualifiedName: string): Pick<SymbolDetail, 'cyclomatic' | 'lloc'> | undefined;
  /** CodeThread's four metrics of a function: CC, cognitive complexity, Halstead, LLOC. */
  maintainability(qualifiedName: string): FunctionMaintainability | undefined;
  /** Frees the parse tree; the outline must not be used afterwards. */
  dispose(): void;
}

/** File text → symbols with ranges. Undefined when no grammar exists (file-level analysis only). */
export interface SymbolIndex {
  /**
   * `from`: an open outline of another version and the edits that turn its text into `text`
   * (a patch's post-image from its pre-image); a speed hint, the outline is the same without it.
   */
  open(
    path: string,
    text: string,
    from?: { readonly outline: SourceOutline; readonly edits: readonly SyntaxEdit[] },
  ): Promise<SourceOutline | undefined>;
}
