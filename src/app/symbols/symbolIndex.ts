// The symbol index both front ends analyse with: tree-sitter outlines (src/core/analysis/outline)
// over the grammars the tree-sitter adapter loads (src/infra/treesitter). One per process or
// window: it caches parsers and grammars.
import { createSymbolIndex } from '../../core/analysis/outline';
import type { SymbolIndex } from '../../core/analysis/symbols';
import { TreeSitterParser } from '../../infra/treesitter/parser';

export type { SymbolIndex };

export function createTreeSitterSymbolIndex(): SymbolIndex {
  return createSymbolIndex(new TreeSitterParser());
}
