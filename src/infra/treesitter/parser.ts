import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as WebTreeSitter from 'web-tree-sitter';
import type { Language, Parser, Tree, TreeCursor } from 'web-tree-sitter';
import type { LanguageId, PreviousParse, SyntaxParser, SyntaxTreeLike } from '../../core/analysis/syntax';
import { cursorCallsFor, type CursorCalls, type TreeSitterModule } from './cursorCalls';
import { LazyMirror, spanSearchPays, type IndexSpan } from './mirror';

/** Grammar file names inside tree-sitter-wasms/out. */
const GRAMMAR_FILES: Record<LanguageId, string> = {
  python: 'tree-sitter-python.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  go: 'tree-sitter-go.wasm',
  java: 'tree-sitter-java.wasm',
  rust: 'tree-sitter-rust.wasm',
};

export interface TreeSitterOptions {
  /** Folder holding the tree-sitter-*.wasm grammars (default: the tree-sitter-wasms package). */
  readonly grammarDir?: string;
  /** Path of web-tree-sitter's runtime tree-sitter.wasm (default: from the package). */
  readonly runtimeWasm?: string;
}

// Packages are resolved next to this code first (dist/ or src/ both sit beside node_modules), then
// from the working directory.
function requireFromPackages(spec: string): { resolve: (s: string) => string; load: () => unknown } {
  const candidates = [createRequire(__filename), createRequire(join(process.cwd(), 'noop.js'))];
  for (const req of candidates) {
    try {
      const path = req.resolve(spec);
      return { resolve: () => path, load: () => req(spec) };
    } catch {
      // try the next place
    }
  }
  throw new Error(`cannot find ${spec} (is it installed?)`);
}

function resolvePackageFile(spec: string): string {
  return requireFromPackages(spec).resolve(spec);
}

/**
 * web-tree-sitter is loaded with require() at run time, not bundled: its ES module build locates
 * itself through import.meta.url, which a CommonJS bundle does not have; the CommonJS build works.
 */
let wts: typeof WebTreeSitter | undefined;
function webTreeSitter(): typeof WebTreeSitter {
  wts ??= requireFromPackages('web-tree-sitter').load() as typeof WebTreeSitter;
  return wts;
}

let runtime: Promise<(tree: Tree, cursor: TreeCursor) => CursorCalls> | undefined;

/**
 * Loads the runtime once; resolves to how tree copies call cursors. emscripten fills the object
 * given to `Parser.init` with the runtime's exports, which the copies call directly (cursorCalls.ts).
 */
function initRuntime(options: TreeSitterOptions): Promise<(tree: Tree, cursor: TreeCursor) => CursorCalls> {
  runtime ??= (async () => {
    const wasm = options.runtimeWasm ?? resolvePackageFile('web-tree-sitter/tree-sitter.wasm');
    const module = { locateFile: () => wasm };
    await webTreeSitter().Parser.init(module);
    return cursorCallsFor(module as TreeSitterModule);
  })();
  return runtime;
}

/**
 * web-tree-sitter with tree-sitter-wasms grammars (ABI 14; web-tree-sitter 0.25.x is the newest
 * runtime that loads them). The runtime and each grammar are loaded on first use and cached, so
 * a run that only sees Python never reads the other grammars. Trees are handed out as lazy
 * mirrors: the wasm tree lives until the caller deletes it (or drops it: see LazyMirror), as the
 * source of nodes not copied yet and as the base for incremental parses of edited versions.
 */
export class TreeSitterParser implements SyntaxParser {
  private readonly languages = new Map<LanguageId, Promise<Language | undefined>>();
  private readonly parsers = new Map<LanguageId, Parser>();
  /** Why a grammar could not be loaded, per language (shown as a coverage note). */
  readonly failures = new Map<LanguageId, string>();

  constructor(private readonly options: TreeSitterOptions = {}) {}

  private language(id: LanguageId): Promise<Language | undefined> {
    let pending = this.languages.get(id);
    if (!pending) {
      pending = (async () => {
        try {
          await initRuntime(this.options);
          const dir =
            this.options.grammarDir ?? dirname(resolvePackageFile(`tree-sitter-wasms/out/${GRAMMAR_FILES.python}`));
          return await webTreeSitter().Language.load(join(dir, GRAMMAR_FILES[id]));
        } catch (e) {
          this.failures.set(id, `grammar for ${id} could not be loaded: ${(e as Error).message || String(e)}`);
          return undefined;
        }
      })();
      this.languages.set(id, pending);
    }
    return pending;
  }

  /**
   * Reparses only what the edits touched, reusing the rest of the previous tree (tree-sitter's
   * incremental parsing). A tree with syntax errors is parsed again from scratch: error recovery
   * depends on where parsing starts, and the result must equal a fresh parse.
   */
  private reparse(
    parser: Parser,
    text: string,
    previous: PreviousParse | undefined,
  ): { tree: Tree | null; base?: LazyMirror; changed?: readonly IndexSpan[] } {
    const base = previous?.tree instanceof LazyMirror && previous.tree.alive ? previous.tree : undefined;
    if (!base) return { tree: parser.parse(text) };
    const old = base.tree.copy();
    try {
      for (const e of previous!.edits) old.edit(e);
      const tree = parser.parse(text, old);
      if (!tree) return { tree };
      if (!tree.rootNode.hasError) {
        // Where the structure differs from the edited base (asked while that tree is alive), so
        // that the new tree's definitions can be found there alone (LazyMirror.startsOf), when
        // the edits are few enough for that to be cheaper than one search of the whole tree.
        const changed = spanSearchPays(previous!.edits.length, base.rootNode.subtreeEnd)
          ? old.getChangedRanges(tree).map((r) => ({ startIndex: r.startIndex, endIndex: r.endIndex }))
          : undefined;
        return { tree, base, changed };
      }
      tree.delete();
    } finally {
      old.delete();
    }
    return { tree: parser.parse(text) };
  }

  async parse(language: LanguageId, text: string, previous?: PreviousParse): Promise<SyntaxTreeLike | undefined> {
    const lang = await this.language(language);
    if (!lang) throw new Error(this.failures.get(language));
    let parser = this.parsers.get(language);
    if (!parser) {
      parser = new (webTreeSitter().Parser)();
      parser.setLanguage(lang);
      this.parsers.set(language, parser);
    }
    const { tree, base, changed } = this.reparse(parser, text, previous);
    if (!tree) return undefined;
    try {
      // A tree parsed from scratch is usually a pre-image, the base of its post-images: index it.
      return new LazyMirror(tree, text, {
        index: previous === undefined,
        reuse: base,
        edited: base && changed ? { edits: previous!.edits, changed } : undefined,
        calls: await initRuntime(this.options),
      });
    } catch (e) {
      tree.delete();
      throw e;
    }
  }
}
