// The patch analysis engine: what the editor layer and the CLI call.
export { analyzeStep, jaccard, type AnalyzeStepInput, type PatchSide } from './analyzeStep';
export { decorationsFor } from './decorations';
export { createSymbolIndex, discoverSymbols } from './outline';
export { languageOf, type LanguageId, type SyntaxParser, type SyntaxNodeLike, type SyntaxTreeLike } from './syntax';
export {
  MODULE_SYMBOL,
  type CodeSymbol,
  type SourceOutline,
  type SymbolDetail,
  type SymbolIndex,
  type Fact,
} from './symbols';
export { suggestDrift, diffFacts, type SymbolVersions } from './drift';
