import type { SkipReason, TargetFunction } from '../../protocol/codethread';
import { languageOf, namedChildren, type LanguageId, type SyntaxParser, type SyntaxTreeLike } from '../analysis/syntax';
import { applyFilePatch } from '../patch/apply';
import { filePath, type Patch } from '../patch/types';
import { isUserError } from '../util/errors';
import { indentUnit, notImplementedStatement } from './notImplemented';
import { functionSites, targetSites, toTarget, type FunctionSite } from './targets';

/** One file of PR0: the base version and the skeleton. */
export interface SkeletonFile {
  readonly path: string;
  readonly language: LanguageId;
  readonly base: string;
  readonly skeleton: string;
  readonly targets: readonly TargetFunction[];
  /** Each target as PR0 shows it (doc comment above it included), for the Implementation Task's statement. */
  readonly stubs: readonly TargetStub[];
}

export interface TargetStub {
  readonly target: TargetFunction;
  /** 1-based line of the stub in PR0. */
  readonly line: number;
  readonly text: string;
}

export type SkeletonResult =
  | { readonly kind: 'skeleton'; readonly files: readonly SkeletonFile[]; readonly targets: readonly TargetFunction[] }
  | { readonly kind: 'skipped'; readonly reason: SkipReason; readonly detail: string };

export interface SkeletonInput {
  readonly goldPatch: Patch;
  /** A file at the instance's base commit; undefined when it is not there. */
  readFile(path: string): Promise<string | undefined>;
  readonly parser: SyntaxParser;
}

function lineStart(text: string, index: number): number {
  return text.lastIndexOf('\n', index - 1) + 1;
}

function leadingWhitespace(text: string, index: number): string {
  const start = lineStart(text, index);
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** The text that takes the place of `site`'s body (site.body.replaceFrom..replaceTo). */
function replacement(language: LanguageId, text: string, site: FunctionSite): string {
  const stub = notImplementedStatement(language);
  const { body } = site;
  // Python: the span starts at the first statement after the docstring, already indented.
  if (language === 'python') return stub;
  const outer = leadingWhitespace(text, body.replaceFrom);
  // The body's own indentation when its first statement sits on a line of its own, else one level deeper.
  const first = namedChildren(body.node)[0];
  const own =
    first && first.startPosition.row > body.node.startPosition.row ? leadingWhitespace(text, first.startIndex) : '';
  const indentOk = own.length > outer.length ? own : outer + indentUnit(language, outer);
  const kept = body.keptCall ? `${indentOk}${body.keptCall}\n` : '';
  return `{\n${kept}${indentOk}${stub}\n${outer}}`;
}

/** `text` with the bodies of `sites` replaced (they never overlap: nested targets were dropped). */
export function skeletonText(language: LanguageId, text: string, sites: readonly FunctionSite[]): string {
  let out = text;
  for (const site of [...sites].sort((a, b) => b.body.replaceFrom - a.body.replaceFrom))
    out = out.slice(0, site.body.replaceFrom) + replacement(language, text, site) + out.slice(site.body.replaceTo);
  return out;
}

/** Comment lines right above a definition (JSDoc, Javadoc, `///`, Go's `//`) and Rust attributes. */
const DOC_LINE = /^\s*(\/\/|\/\*|\*|#\[)/;

function stubsOf(
  language: LanguageId,
  tree: SyntaxTreeLike,
  text: string,
  targets: readonly TargetFunction[],
): TargetStub[] {
  const lines = text.split('\n');
  const byName = new Map(functionSites(language, tree).map((s) => [s.symbol.qualifiedName, s.symbol]));
  return targets.map((target) => {
    const symbol = byName.get(target.function)!;
    let first = symbol.startLine;
    while (first > 1 && DOC_LINE.test(lines[first - 2])) first--;
    return { target, line: symbol.startLine, text: lines.slice(first - 1, symbol.endLine).join('\n') };
  });
}

/** Where the first syntax error of a tree is (1-based line), or null when it parsed cleanly. */
function syntaxErrorLine(tree: SyntaxTreeLike): number | null {
  if (tree.firstSyntaxError) {
    const at = tree.firstSyntaxError();
    return at === null ? null : at.row + 1;
  }
  const stack = [tree.rootNode];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'ERROR') return node.startPosition.row + 1;
    for (let i = node.childCount - 1; i >= 0; i--) {
      const c = node.child(i);
      if (c) stack.push(c);
    }
  }
  return null;
}

async function parseOrNull(parser: SyntaxParser, language: LanguageId, text: string) {
  return (await parser.parse(language, text)) ?? null;
}

const skip = (reason: SkipReason, detail: string): SkeletonResult => ({ kind: 'skipped', reason, detail });

/**
 * PR0 of a CodeThread task (docs/reference/codethread.md): every function or method whose body
 * the gold patch changes keeps its signature, decorators and docstring, and its body becomes the
 * language's not-implemented statement. The skeleton of each file is parsed again and must parse
 * as cleanly as the base did. An instance with no such function is skipped, with the reason.
 */
export async function buildSkeleton(input: SkeletonInput): Promise<SkeletonResult> {
  const codeFiles = input.goldPatch.files.filter((f) => !f.binary && languageOf(filePath(f)) !== undefined);
  if (codeFiles.length === 0)
    return skip(
      'no-code-files',
      `the gold patch changes no source file of a language ChainLens parses (${input.goldPatch.files.map(filePath).join(', ') || 'no files'})`,
    );
  const files: SkeletonFile[] = [];
  const targets: TargetFunction[] = [];
  for (const file of codeFiles) {
    if (file.status === 'added' || file.status === 'deleted') continue;
    const path = file.oldPath ?? filePath(file);
    const language = languageOf(path)!;
    const base = await input.readFile(path);
    if (base === undefined) return skip('file-unreadable', `${path} is not in the repository at the base commit`);
    let after: string;
    try {
      after = applyFilePatch(base, file);
    } catch (e) {
      if (!isUserError(e)) throw e;
      return skip('file-unreadable', `the gold patch does not apply to ${path} at the base commit: ${e.message}`);
    }
    const [baseTree, afterTree] = [
      await parseOrNull(input.parser, language, base),
      await parseOrNull(input.parser, language, after),
    ];
    try {
      if (!baseTree || !afterTree) return skip('base-does-not-parse', `${path} could not be parsed as ${language}`);
      const errorAt = syntaxErrorLine(baseTree);
      if (errorAt !== null)
        return skip('base-does-not-parse', `${path} has a syntax error at line ${errorAt} at the base commit`);
      const sites = targetSites(file, functionSites(language, baseTree), functionSites(language, afterTree));
      if (sites.length === 0) continue;
      const skeleton = skeletonText(language, base, sites);
      const check = await parseOrNull(input.parser, language, skeleton);
      let stubs: TargetStub[];
      const fileTargets = sites.map((s) => toTarget(path, s));
      try {
        const bad = check ? syntaxErrorLine(check) : 1;
        if (bad !== null)
          return skip('skeleton-does-not-parse', `the skeleton of ${path} has a syntax error at line ${bad}`);
        stubs = stubsOf(language, check!, skeleton, fileTargets);
      } finally {
        check?.delete();
      }
      files.push({ path, language, base, skeleton, targets: fileTargets, stubs });
      targets.push(...fileTargets);
    } finally {
      baseTree?.delete();
      afterTree?.delete();
    }
  }
  if (targets.length === 0)
    return skip(
      'no-function-body',
      'the gold patch changes no body of an existing function or method (only module- or class-level code, new or deleted functions, signatures or docstrings)',
    );
  return { kind: 'skeleton', files, targets };
}
