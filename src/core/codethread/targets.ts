import type { TargetFunction } from '../../protocol/codethread';
import { profileOf } from '../analysis/languages';
import { discoverSymbols } from '../analysis/outline';
import type { CodeSymbol } from '../analysis/symbols';
import type { LanguageId, SyntaxNodeLike, SyntaxTreeLike } from '../analysis/syntax';
import { changedLines } from '../patch/lines';
import type { FilePatch } from '../patch/types';
import { functionBody, type FunctionBody } from './bodies';

/** A function or method of one version of a file, with its body. */
export interface FunctionSite {
  readonly symbol: CodeSymbol;
  readonly node: SyntaxNodeLike;
  readonly body: FunctionBody;
}

/** Every function and method of a parsed file that has a body (signatures and abstract methods have none). */
export function functionSites(language: LanguageId, tree: SyntaxTreeLike): FunctionSite[] {
  const profile = profileOf(language);
  const out: FunctionSite[] = [];
  for (const { symbol, node } of discoverSymbols(profile, tree.rootNode, tree.startsOf?.(profile.definitionTypes))) {
    if (symbol.kind !== 'function' && symbol.kind !== 'method') continue;
    const body = functionBody(language, node);
    if (body) out.push({ symbol, node, body });
  }
  return out;
}

/** The innermost function whose body code holds `line` (so a change in a nested function is the nested one's). */
function innermostBodyAt(sites: readonly FunctionSite[], line: number): FunctionSite | undefined {
  let best: FunctionSite | undefined;
  for (const s of sites) {
    if (line < s.body.firstLine || line > s.body.lastLine) continue;
    if (!best || s.body.lastLine - s.body.firstLine < best.body.lastLine - best.body.firstLine) best = s;
  }
  return best;
}

const isBlank = (text: string) => text.trim() === '';

/**
 * The target functions of one file: the functions and methods whose body the gold patch changes
 * (a removed line inside the body at base, or an added line inside the body afterwards) and that
 * exist on both sides. Not targets: a function gold adds or deletes whole, a change to a
 * signature, decorator or Python docstring only, module- and class-level code, blank lines. A
 * target nested in another target is covered by the outer one (its body goes with it).
 * Returned in source order, as base sites.
 */
export function targetSites(
  file: FilePatch,
  base: readonly FunctionSite[],
  after: readonly FunctionSite[],
): FunctionSite[] {
  const baseByName = new Map(base.map((s) => [s.symbol.qualifiedName, s]));
  const afterNames = new Set(after.map((s) => s.symbol.qualifiedName));
  const hit = new Set<string>();
  for (const cl of changedLines(file)) {
    if (isBlank(cl.text)) continue;
    const site = cl.kind === 'del' ? innermostBodyAt(base, cl.oldLine) : innermostBodyAt(after, cl.newLine);
    const name = site?.symbol.qualifiedName;
    if (name !== undefined && baseByName.has(name) && afterNames.has(name)) hit.add(name);
  }
  const picked = base.filter((s) => hit.has(s.symbol.qualifiedName));
  return picked.filter(
    (s) =>
      !picked.some(
        (outer) =>
          outer !== s && outer.body.replaceFrom <= s.node.startIndex && s.node.endIndex <= outer.body.replaceTo,
      ),
  );
}

export function toTarget(file: string, site: FunctionSite): TargetFunction {
  return { file, function: site.symbol.qualifiedName, kind: site.symbol.kind, line: site.symbol.startLine };
}
