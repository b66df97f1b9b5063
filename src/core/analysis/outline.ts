import type { SymbolKind } from '../../protocol/analysis';
import { extractDetail, extractMetrics, type SymbolMetricsOnly } from './extract';
import { functionMaintainability, type FunctionMaintainability } from './maintainability';
import { profileOf, type LanguageProfile } from './languages';
import { SymbolTable } from './symbolList';
import type { CodeSymbol, SourceOutline, SymbolDetail, SymbolIndex } from './symbols';
import { languageOf, type SyntaxNodeLike, type SyntaxParser, type SyntaxTreeLike } from './syntax';

interface Found {
  readonly symbol: CodeSymbol;
  readonly node: SyntaxNodeLike;
}

/** Whether a sorted list holds a value within [from, to]. */
function anyWithin(sorted: readonly number[], from: number, to: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo] <= to;
}

/**
 * Every symbol of a tree in source order (outer before inner), with qualified names.
 * `definitionStarts`: where the nodes of the profile's definition types start; subtrees holding
 * none of them are not walked (a descendant starts within its ancestor's span), which leaves the
 * result the same and most of the tree unread.
 */
export function discoverSymbols(
  profile: LanguageProfile,
  root: SyntaxNodeLike,
  definitionStarts?: readonly number[],
): Found[] {
  const found: Found[] = [];
  const seen = new Map<string, number>();
  const walk = (
    node: SyntaxNodeLike,
    prefix: string,
    parentKind: SymbolKind | undefined,
    wrapperStart: number | undefined,
  ) => {
    const def = profile.definition(node, parentKind === 'class');
    let nextPrefix = prefix;
    let nextKind = parentKind;
    if (def) {
      const base = prefix ? `${prefix}.${def.name}` : def.name;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const qualifiedName = n === 1 ? base : `${base}#${n}`;
      const symbol: CodeSymbol = {
        name: def.name,
        qualifiedName,
        kind: def.kind,
        startLine: (wrapperStart ?? node.startPosition.row) + 1,
        endLine:
          node.endPosition.row +
          1 -
          (node.endPosition.column === 0 && node.endPosition.row > node.startPosition.row ? 1 : 0),
      };
      found.push({ symbol, node });
      nextPrefix = qualifiedName;
      nextKind = def.kind;
    }
    const isWrapper = profile.wrappers.has(node.type);
    for (let i = 0, n = node.childCount; i < n; i++) {
      const child = node.child(i);
      if (!child || !child.isNamed || profile.noDefinitionsInside.has(child.type)) continue;
      if (definitionStarts && !anyWithin(definitionStarts, child.startIndex, child.endIndex)) continue;
      walk(child, nextPrefix, nextKind, isWrapper ? (wrapperStart ?? node.startPosition.row) : undefined);
    }
  };
  walk(root, '', undefined, undefined);
  return found;
}

class TreeOutline implements SourceOutline {
  readonly symbols: readonly CodeSymbol[];
  private readonly byName = new Map<string, Found>();
  private readonly table: SymbolTable;
  private readonly details = new Map<string, SymbolDetail | undefined>();
  private readonly metricsOnly = new Map<string, SymbolMetricsOnly | undefined>();
  private readonly lines: string[];

  constructor(
    private readonly profile: LanguageProfile,
    private tree: SyntaxTreeLike | undefined,
    text: string,
  ) {
    const found = discoverSymbols(profile, tree!.rootNode, tree!.startsOf?.(profile.definitionTypes));
    this.symbols = found.map((f) => f.symbol);
    for (const f of found) this.byName.set(f.symbol.qualifiedName, f);
    this.lines = text.split('\n');
    this.table = new SymbolTable(this.symbols, this.lines.length);
  }

  get language() {
    return this.profile.id;
  }

  symbolAt(line: number): CodeSymbol | undefined {
    return this.table.symbolAt(line);
  }

  find(qualifiedName: string): CodeSymbol | undefined {
    return this.table.find(qualifiedName);
  }

  detail(qualifiedName: string): SymbolDetail | undefined {
    if (this.details.has(qualifiedName)) return this.details.get(qualifiedName);
    const f = this.byName.get(qualifiedName);
    if (!this.tree) throw new Error('SourceOutline used after dispose()');
    if (f) this.tree.readSubtree?.(f.node);
    const text = f ? this.lines.slice(f.symbol.startLine - 1, f.symbol.endLine).join('\n') : '';
    const d = f ? extractDetail(this.profile, f.node, f.symbol, text) : undefined;
    this.details.set(qualifiedName, d);
    return d;
  }

  metrics(qualifiedName: string): SymbolMetricsOnly | undefined {
    if (this.details.has(qualifiedName)) return this.details.get(qualifiedName);
    if (this.metricsOnly.has(qualifiedName)) return this.metricsOnly.get(qualifiedName);
    const f = this.byName.get(qualifiedName);
    if (!this.tree) throw new Error('SourceOutline used after dispose()');
    if (f) this.tree.readSubtree?.(f.node);
    const m = f ? extractMetrics(this.profile, f.node) : undefined;
    this.metricsOnly.set(qualifiedName, m);
    return m;
  }

  maintainability(qualifiedName: string): FunctionMaintainability | undefined {
    const f = this.byName.get(qualifiedName);
    if (!this.tree) throw new Error('SourceOutline used after dispose()');
    if (!f) return undefined;
    this.tree.readSubtree?.(f.node);
    const text = this.lines.slice(f.symbol.startLine - 1, f.symbol.endLine).join('\n');
    return functionMaintainability(this.profile, f.node, text);
  }

  /** The syntax tree while the outline is open (a base for parsing an edited version). */
  get liveTree(): SyntaxTreeLike | undefined {
    return this.tree;
  }

  dispose(): void {
    this.tree?.delete();
    this.tree = undefined;
  }
}

/** A SymbolIndex over any parser that yields tree-sitter-shaped trees (web-tree-sitter in infra). */
export function createSymbolIndex(parser: SyntaxParser): SymbolIndex {
  return {
    async open(path, text, from) {
      const language = languageOf(path);
      if (!language) return undefined;
      const base =
        from?.outline instanceof TreeOutline && from.outline.language === language ? from.outline.liveTree : undefined;
      const tree = await parser.parse(language, text, base ? { tree: base, edits: from!.edits } : undefined);
      return tree ? new TreeOutline(profileOf(language), tree, text) : undefined;
    },
  };
}
