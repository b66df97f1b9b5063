import type { SymbolKind } from '../../protocol/analysis';
import type { LanguageId, SyntaxNodeLike } from './syntax';
import { namedChildren } from './syntax';

export interface SymbolDefinition {
  readonly name: string;
  readonly kind: SymbolKind;
}

/**
 * What analysis needs to know about one grammar: which nodes define symbols, which nodes are
 * comments, branches, exits and handlers. Node type names are those of the tree-sitter grammars
 * shipped by tree-sitter-wasms.
 */
export interface LanguageProfile {
  readonly id: LanguageId;
  /** A symbol defined by this node, if any; `insideClass` turns functions into methods. */
  definition(node: SyntaxNodeLike, insideClass: boolean): SymbolDefinition | undefined;
  /** Every node type `definition` can answer for; other nodes define nothing (lets a search skip subtrees). */
  readonly definitionTypes: ReadonlySet<string>;
  /** Nodes wrapping a definition whose range starts earlier (Python decorators). */
  readonly wrappers: ReadonlySet<string>;
  /** Subtrees that cannot hold a definition; skipped when looking for symbols (speed). */
  readonly noDefinitionsInside: ReadonlySet<string>;
  readonly comments: ReadonlySet<string>;
  /** if-like nodes with `condition` / `consequence` / `alternative` fields. */
  readonly conditionals: ReadonlySet<string>;
  /** Nodes that leave the function early. */
  readonly exits: Readonly<Record<string, 'raise' | 'return' | 'assert'>>;
  /** except / catch clauses. */
  readonly handlers: ReadonlySet<string>;
  /** Cyclomatic complexity added by a node (radon-style: branches, loops, handlers, boolean operators). */
  decisions(node: SyntaxNodeLike): number;
  /** Nodes counted as one logical line each. */
  isLogicalLine(type: string): boolean;
}

const set = (...xs: string[]): ReadonlySet<string> => new Set(xs);

type Definer = (node: SyntaxNodeLike, insideClass: boolean) => SymbolDefinition | undefined;

/** `definition` limited to `types` by construction, so `definitionTypes` cannot miss a case. */
function definer(types: ReadonlySet<string>, define: Definer): Pick<LanguageProfile, 'definition' | 'definitionTypes'> {
  return {
    definitionTypes: types,
    definition: (node, insideClass) => (types.has(node.type) ? define(node, insideClass) : undefined),
  };
}

function nameOf(node: SyntaxNodeLike, field = 'name'): string | undefined {
  return node.childForFieldName(field)?.text;
}

function operatorOf(node: SyntaxNodeLike): string | undefined {
  return node.childForFieldName('operator')?.type;
}

function hasChild(node: SyntaxNodeLike, type: string): boolean {
  return namedChildren(node).some((c) => c.type === type);
}

/** The `case` clauses of one match statement (not those of a match nested in a case). */
function descendantsOfType(node: SyntaxNodeLike, type: string): SyntaxNodeLike[] {
  const out: SyntaxNodeLike[] = [];
  const walk = (n: SyntaxNodeLike) => {
    for (const c of namedChildren(n)) {
      if (c.type === type) out.push(c);
      else if (c.type !== 'match_statement') walk(c);
    }
  };
  walk(node);
  return out;
}

/** Decisions counted in a subtree by the Python profile's walk. */
function pythonDecisionsIn(node: SyntaxNodeLike): number {
  return python.decisions(node) + namedChildren(node).reduce((sum, c) => sum + pythonDecisionsIn(c), 0);
}

/** `case _:` or a capture `case x:` (a guard allowed): radon's MatchAs without a pattern. */
const IRREFUTABLE_CASE = /^case\s+[A-Za-z_]\w*\s*(?:if\b[\s\S]*)?:/;

const python: LanguageProfile = {
  id: 'python',
  ...definer(set('function_definition', 'class_definition'), (node, insideClass) => {
    if (node.type === 'function_definition') {
      const name = nameOf(node);
      return name === undefined ? undefined : { name, kind: insideClass ? 'method' : 'function' };
    }
    if (node.type === 'class_definition') {
      const name = nameOf(node);
      return name === undefined ? undefined : { name, kind: 'class' };
    }
    return undefined;
  }),
  wrappers: set('decorated_definition'),
  noDefinitionsInside: set(
    'expression_statement',
    'return_statement',
    'raise_statement',
    'assert_statement',
    'import_statement',
    'import_from_statement',
    'pass_statement',
    'global_statement',
    'nonlocal_statement',
    'comment',
    'decorator',
    'parameters',
    'argument_list',
    'delete_statement',
    'print_statement',
    'break_statement',
    'continue_statement',
  ),
  comments: set('comment'),
  conditionals: set('if_statement', 'elif_clause'),
  exits: { raise_statement: 'raise', return_statement: 'return', assert_statement: 'assert' },
  handlers: set('except_clause', 'except_group_clause'),
  // radon's ComplexityVisitor (radon 6.0.1, radon/visitors.py; docs/reference/maintainability.md):
  // if/elif, ternaries, assert, each except, each comprehension `for` and `if`, each extra operand
  // of a boolean operator +1; a loop +1 and its `else` +1; a try's `else` +1; a match +1 per
  // case, less one when a case is irrefutable (`case _`, `case x`). `with` and lambdas add nothing.
  decisions(node) {
    switch (node.type) {
      case 'if_statement':
      case 'elif_clause':
      case 'except_clause':
      case 'except_group_clause':
      case 'conditional_expression':
      case 'for_in_clause':
      case 'if_clause':
      case 'boolean_operator':
        return 1;
      case 'assert_statement':
        // radon's visit_Assert adds 1 and does not look inside: the assert's own boolean
        // operators and ternaries, which the walk counts below it, are taken back here.
        return 1 - namedChildren(node).reduce((sum, c) => sum + pythonDecisionsIn(c), 0);
      case 'for_statement':
      case 'while_statement':
        return 1 + (hasChild(node, 'else_clause') ? 1 : 0);
      case 'try_statement':
        return hasChild(node, 'else_clause') ? 1 : 0;
      case 'match_statement': {
        const cases = descendantsOfType(node, 'case_clause');
        // A guard (`case x if …`) parses as an `if_clause`, which radon does not count.
        const guards = cases.reduce((n, c) => n + namedChildren(c).filter((g) => g.type === 'if_clause').length, 0);
        return cases.length - (cases.some((c) => IRREFUTABLE_CASE.test(c.text)) ? 1 : 0) - guards;
      }
      default:
        return 0;
    }
  },
  isLogicalLine: (type) =>
    type.endsWith('_statement') ||
    type === 'function_definition' ||
    type === 'class_definition' ||
    type === 'elif_clause' ||
    type === 'else_clause' ||
    type === 'except_clause' ||
    type === 'except_group_clause' ||
    type === 'finally_clause' ||
    type === 'case_clause',
};

const CURLY_DECISIONS = set(
  'if_statement',
  'for_statement',
  'for_in_statement',
  'while_statement',
  'do_statement',
  'catch_clause',
  'ternary_expression',
  'conditional_expression',
  'switch_case',
  'expression_case',
  'type_case',
  'communication_case',
  'enhanced_for_statement',
  'if_expression',
  'while_expression',
  'for_expression',
  'loop_expression',
  'match_arm',
  'switch_label',
);

function curlyDecisions(node: SyntaxNodeLike): number {
  if (CURLY_DECISIONS.has(node.type)) return node.type === 'switch_label' && node.text.startsWith('default') ? 0 : 1;
  if (node.type === 'binary_expression') {
    const op = operatorOf(node) ?? '';
    return op === '&&' || op === '||' || op === '??' ? 1 : 0;
  }
  return 0;
}

const curlyLogicalLine = (type: string) =>
  (type.endsWith('_statement') && type !== 'expression_statement' && type !== 'empty_statement') ||
  type === 'expression_statement' ||
  type.endsWith('_declaration') ||
  type === 'let_declaration' ||
  type === 'function_item' ||
  type === 'method_definition' ||
  type === 'catch_clause' ||
  type === 'else_clause';

function jsDefinition(node: SyntaxNodeLike, insideClass: boolean): SymbolDefinition | undefined {
  switch (node.type) {
    case 'function_declaration':
    case 'generator_function_declaration': {
      const name = nameOf(node);
      return name === undefined ? undefined : { name, kind: 'function' };
    }
    case 'class_declaration':
    case 'abstract_class_declaration':
    case 'class': {
      const name = nameOf(node);
      return name === undefined ? undefined : { name, kind: 'class' };
    }
    case 'interface_declaration':
    case 'enum_declaration':
    case 'type_alias_declaration': {
      const name = nameOf(node);
      return name === undefined ? undefined : { name, kind: 'type' };
    }
    case 'method_definition':
    case 'method_signature':
    case 'abstract_method_signature': {
      const name = nameOf(node);
      return name === undefined ? undefined : { name, kind: insideClass ? 'method' : 'function' };
    }
    case 'variable_declarator':
    case 'public_field_definition':
    case 'field_definition': {
      const value = node.childForFieldName('value');
      if (!value || !['arrow_function', 'function', 'function_expression', 'generator_function'].includes(value.type))
        return undefined;
      const name = nameOf(node) ?? nameOf(node, 'property');
      return name === undefined ? undefined : { name, kind: insideClass ? 'method' : 'function' };
    }
    default:
      return undefined;
  }
}

const JS_DEFINITIONS = set(
  'function_declaration',
  'generator_function_declaration',
  'class_declaration',
  'abstract_class_declaration',
  'class',
  'interface_declaration',
  'enum_declaration',
  'type_alias_declaration',
  'method_definition',
  'method_signature',
  'abstract_method_signature',
  'variable_declarator',
  'public_field_definition',
  'field_definition',
);

const jsLike = (id: LanguageId): LanguageProfile => ({
  id,
  ...definer(JS_DEFINITIONS, jsDefinition),
  wrappers: set(),
  noDefinitionsInside: set('comment', 'import_statement', 'string', 'template_string', 'regex', 'number'),
  comments: set('comment'),
  conditionals: set('if_statement'),
  exits: { throw_statement: 'raise', return_statement: 'return' },
  handlers: set('catch_clause'),
  decisions: curlyDecisions,
  isLogicalLine: curlyLogicalLine,
});

/** `func (s *Server) Run()` → Server. */
function goReceiverType(node: SyntaxNodeLike): string | undefined {
  const receiver = node.childForFieldName('receiver');
  if (!receiver) return undefined;
  const m = /([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*\)\s*$/.exec(receiver.text);
  return m?.[1];
}

const go: LanguageProfile = {
  id: 'go',
  ...definer(set('function_declaration', 'method_declaration', 'type_spec'), (node) => {
    switch (node.type) {
      case 'function_declaration': {
        const name = nameOf(node);
        return name === undefined ? undefined : { name, kind: 'function' };
      }
      case 'method_declaration': {
        const name = nameOf(node);
        if (name === undefined) return undefined;
        const recv = goReceiverType(node);
        return { name: recv ? `${recv}.${name}` : name, kind: 'method' };
      }
      case 'type_spec': {
        const name = nameOf(node);
        return name === undefined ? undefined : { name, kind: 'type' };
      }
      default:
        return undefined;
    }
  }),
  wrappers: set(),
  noDefinitionsInside: set('comment', 'import_declaration', 'package_clause'),
  comments: set('comment'),
  conditionals: set('if_statement'),
  exits: { return_statement: 'return' },
  handlers: set(),
  decisions: curlyDecisions,
  isLogicalLine: curlyLogicalLine,
};

const JAVA_DEFINITIONS = set(
  'class_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'annotation_type_declaration',
  'method_declaration',
  'constructor_declaration',
  'compact_constructor_declaration',
);

const java: LanguageProfile = {
  id: 'java',
  ...definer(JAVA_DEFINITIONS, (node, insideClass) => {
    switch (node.type) {
      case 'class_declaration':
      case 'interface_declaration':
      case 'enum_declaration':
      case 'record_declaration':
      case 'annotation_type_declaration': {
        const name = nameOf(node);
        return name === undefined ? undefined : { name, kind: 'class' };
      }
      case 'method_declaration':
      case 'constructor_declaration':
      case 'compact_constructor_declaration': {
        const name = nameOf(node);
        return name === undefined ? undefined : { name, kind: insideClass ? 'method' : 'function' };
      }
      default:
        return undefined;
    }
  }),
  wrappers: set(),
  noDefinitionsInside: set('line_comment', 'block_comment', 'import_declaration', 'package_declaration'),
  comments: set('line_comment', 'block_comment', 'comment'),
  conditionals: set('if_statement'),
  exits: { throw_statement: 'raise', return_statement: 'return', assert_statement: 'assert' },
  handlers: set('catch_clause'),
  decisions: curlyDecisions,
  isLogicalLine: curlyLogicalLine,
};

/** `impl<T> Display for Wrapper<T>` → Wrapper. */
function rustImplName(node: SyntaxNodeLike): string | undefined {
  const t = node.childForFieldName('type');
  if (!t) return undefined;
  return /^[A-Za-z_][A-Za-z0-9_]*/.exec(t.text.replace(/^&\s*(mut\s+)?/, ''))?.[0];
}

const rust: LanguageProfile = {
  id: 'rust',
  ...definer(
    set(
      'function_item',
      'function_signature_item',
      'impl_item',
      'struct_item',
      'enum_item',
      'trait_item',
      'union_item',
      'mod_item',
    ),
    (node, insideClass) => {
      switch (node.type) {
        case 'function_item':
        case 'function_signature_item': {
          const name = nameOf(node);
          return name === undefined ? undefined : { name, kind: insideClass ? 'method' : 'function' };
        }
        case 'impl_item': {
          const name = rustImplName(node);
          return name === undefined ? undefined : { name, kind: 'class' };
        }
        case 'struct_item':
        case 'enum_item':
        case 'trait_item':
        case 'union_item': {
          const name = nameOf(node);
          return name === undefined ? undefined : { name, kind: node.type === 'trait_item' ? 'class' : 'type' };
        }
        case 'mod_item': {
          const name = nameOf(node);
          return name === undefined ? undefined : { name, kind: 'module' };
        }
        default:
          return undefined;
      }
    },
  ),
  wrappers: set(),
  noDefinitionsInside: set('line_comment', 'block_comment', 'use_declaration', 'attribute_item'),
  comments: set('line_comment', 'block_comment'),
  conditionals: set('if_expression'),
  exits: { return_expression: 'return' },
  handlers: set(),
  decisions: curlyDecisions,
  isLogicalLine: curlyLogicalLine,
};

const PROFILES: Record<LanguageId, LanguageProfile> = {
  python,
  javascript: jsLike('javascript'),
  typescript: jsLike('typescript'),
  tsx: jsLike('tsx'),
  go,
  java,
  rust,
};

export function profileOf(language: LanguageId): LanguageProfile {
  return PROFILES[language];
}

/** Python docstring: a block's first statement that is a lone string literal. */
export function isDocstring(profile: LanguageProfile, node: SyntaxNodeLike, indexInBlock: number): boolean {
  if (profile.id !== 'python' || indexInBlock !== 0 || node.type !== 'expression_statement') return false;
  const kids = namedChildren(node);
  return kids.length === 1 && (kids[0].type === 'string' || kids[0].type === 'concatenated_string');
}
