import { isDocstring, profileOf } from '../analysis/languages';
import { namedChildren, type LanguageId, type SyntaxNodeLike } from '../analysis/syntax';

/** Where a function's body is, and what of it a skeleton replaces. */
export interface FunctionBody {
  readonly node: SyntaxNodeLike;
  /** `{ ... }` (every language but Python, and JavaScript arrows with an expression body). */
  readonly braced: boolean;
  /**
   * 1-based lines holding the body's code: braces and a Python docstring excluded (the skeleton
   * keeps them, so a change there is not a change of the body). Empty when firstLine > lastLine.
   */
  readonly firstLine: number;
  readonly lastLine: number;
  /** The span the skeleton replaces, as string indices. */
  readonly replaceFrom: number;
  readonly replaceTo: number;
  /**
   * A constructor's call of its super/this constructor, kept in the skeleton: Java needs it when
   * the superclass has no no-argument constructor, TypeScript refuses a derived class without it.
   */
  readonly keptCall?: string;
}

const FUNCTION_VALUES = new Set(['arrow_function', 'function', 'function_expression', 'generator_function']);

/** The node holding the body of a definition the analysis found, if it has one (a signature has none). */
function bodyNode(language: LanguageId, node: SyntaxNodeLike): SyntaxNodeLike | undefined {
  if (language === 'javascript' || language === 'typescript' || language === 'tsx') {
    if (node.type === 'variable_declarator' || node.type.endsWith('field_definition')) {
      const value = node.childForFieldName('value');
      return value && FUNCTION_VALUES.has(value.type) ? (value.childForFieldName('body') ?? undefined) : undefined;
    }
  }
  return node.childForFieldName('body') ?? undefined;
}

function constructorCall(language: LanguageId, first: SyntaxNodeLike | undefined): SyntaxNodeLike | undefined {
  if (!first) return undefined;
  if (language === 'java') return first.type === 'explicit_constructor_invocation' ? first : undefined;
  if (language === 'javascript' || language === 'typescript' || language === 'tsx')
    return first.type === 'expression_statement' && /^super\s*\(/.test(first.text) ? first : undefined;
  return undefined;
}

/** The body of a function or method definition node, or undefined when it has none. */
export function functionBody(language: LanguageId, definition: SyntaxNodeLike): FunctionBody | undefined {
  const node = bodyNode(language, definition);
  if (!node) return undefined;
  const startRow = node.startPosition.row;
  const endRow = node.endPosition.row;
  if (language === 'python') {
    const statements = namedChildren(node);
    const profile = profileOf('python');
    const doc = statements[0] && isDocstring(profile, statements[0], 0) ? statements[0] : undefined;
    const code = doc ? statements.slice(1) : statements;
    const from = code[0]?.startIndex ?? node.endIndex;
    return {
      node,
      braced: false,
      firstLine: (code[0]?.startPosition.row ?? endRow + 1) + 1,
      lastLine: code.length ? endRow + 1 : endRow,
      replaceFrom: doc ? from : node.startIndex,
      replaceTo: node.endIndex,
    };
  }
  const braced = node.text.startsWith('{');
  if (!braced) {
    // An arrow function's expression body: all of it is code.
    return {
      node,
      braced,
      firstLine: startRow + 1,
      lastLine: endRow + 1,
      replaceFrom: node.startIndex,
      replaceTo: node.endIndex,
    };
  }
  const call = constructorCall(language, namedChildren(node)[0]);
  return {
    node,
    braced,
    // The lines between the braces; a body on one line is all code.
    firstLine: startRow === endRow ? startRow + 1 : startRow + 2,
    lastLine: startRow === endRow ? endRow + 1 : endRow,
    replaceFrom: node.startIndex,
    replaceTo: node.endIndex,
    ...(call ? { keptCall: call.text } : {}),
  };
}
