/**
 * The slice of a concrete syntax tree that analysis reads. web-tree-sitter's Node satisfies it
 * structurally, so src/infra/treesitter hands real trees in while core never imports a parser.
 */
export interface SyntaxPoint {
  readonly row: number;
  readonly column: number;
}

export interface SyntaxNodeLike {
  readonly type: string;
  readonly isNamed: boolean;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: SyntaxPoint;
  readonly endPosition: SyntaxPoint;
  readonly childCount: number;
  child(index: number): SyntaxNodeLike | null;
  childForFieldName(name: string): SyntaxNodeLike | null;
  fieldNameForChild(index: number): string | null;
}

export interface SyntaxTreeLike {
  readonly rootNode: SyntaxNodeLike;
  /**
   * A hint that the whole subtree of `node` (a node of this tree) is about to be read: a tree that
   * copies nodes out of the parser lazily can copy it in one pass. Reading works without it.
   */
  readSubtree?(node: SyntaxNodeLike): void;
  /**
   * Start indices, ascending, of every named node of one of `types` in the tree, found without
   * copying the tree out of the parser, so that a search for such nodes can skip the subtrees
   * holding none. Undefined when they cannot be had that way.
   */
  startsOf?(types: ReadonlySet<string>): readonly number[] | undefined;
  /** Where the first syntax error (an ERROR or MISSING node) is, or null when the text parsed cleanly. */
  firstSyntaxError?(): SyntaxPoint | null;
  /** Frees the tree (wasm memory is not garbage collected). */
  delete(): void;
}

export type LanguageId = 'python' | 'javascript' | 'typescript' | 'tsx' | 'go' | 'java' | 'rust';

/** One replaced span, as tree-sitter takes it: indices in UTF-16 code units (JS string indices). */
export interface SyntaxEdit {
  readonly startIndex: number;
  readonly oldEndIndex: number;
  readonly newEndIndex: number;
  readonly startPosition: SyntaxPoint;
  readonly oldEndPosition: SyntaxPoint;
  readonly newEndPosition: SyntaxPoint;
}

/** A tree the new text was made from by `edits` (in order): lets a parser reparse only what changed. */
export interface PreviousParse {
  readonly tree: SyntaxTreeLike;
  readonly edits: readonly SyntaxEdit[];
}

/** Parses source text of a language; rejects with a reason a person can act on when the grammar cannot be had. */
export interface SyntaxParser {
  /** The tree must be the same as a parse from scratch; `previous` is only a hint for speed. */
  parse(language: LanguageId, text: string, previous?: PreviousParse): Promise<SyntaxTreeLike | undefined>;
}

const EXTENSIONS: Record<string, LanguageId> = {
  py: 'python',
  pyi: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  go: 'go',
  java: 'java',
  rs: 'rust',
};

/** The grammar a path is parsed with, by extension; undefined means file-level analysis only. */
export function languageOf(path: string): LanguageId | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  return EXTENSIONS[path.slice(dot + 1).toLowerCase()];
}

// Callers loop over children with indices: a generator yielding a fresh [child, field] tuple per
// child was a tenth of the analysis time on large patches.
export function namedChildren(node: SyntaxNodeLike): SyntaxNodeLike[] {
  const out: SyntaxNodeLike[] = [];
  for (let i = 0, n = node.childCount; i < n; i++) {
    const c = node.child(i);
    if (c && c.isNamed) out.push(c);
  }
  return out;
}
