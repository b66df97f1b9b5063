// Cognitive complexity (G. Ann Campbell, "Cognitive Complexity", SonarSource white paper v1.7,
// 2023; docs/reference/maintainability.md), on the tree-sitter trees of every language the
// analysis parses:
//   B1 increments: +1 for each if, else if, else, ternary, switch, loop, catch, each sequence of
//      like boolean operators (`a && b && c` +1, `a && b || c` +2), a break/continue to a label
//      and goto, and once for a function that calls itself (recursion);
//   B2 nesting: if, ternary, switch, loop and catch add the nesting level they sit at; else if
//      and else do not (they are at the level of their if);
//   B3 nesting level: grows inside if / else if / else, ternary, switch, loop, catch, and inside a
//      lambda or inner function written inline (a nested named function is a symbol of its own).
// Python follows complexipy (CodeThread's Python tool, Table A3) where it adds to the paper: a
// comprehension's `for` is a loop (+1 + nesting), its `if` +1; `except` is a catch; `match` a
// switch; a loop's `else` and a try's `else` add nothing.
import type { LanguageProfile } from '../languages';
import { namedChildren, type SyntaxNodeLike } from '../syntax';

interface CognitiveSyntax {
  /** +1 + nesting, and nesting +1 inside. */
  readonly structures: ReadonlySet<string>;
  /** If-like nodes whose `alternative` is an else / else-if chain. */
  readonly ifs: ReadonlySet<string>;
  /** Python's `elif` / `else` clauses of an if (children, not an `alternative` chain). */
  readonly elseClauses: ReadonlySet<string>;
  /** Inline functions: nesting +1 inside, no increment. */
  readonly lambdas: ReadonlySet<string>;
  /** Boolean operators (`and`/`or`, `&&`/`||`) in binary-operator nodes of these types. */
  readonly booleans: ReadonlySet<string>;
  readonly booleanOperators: ReadonlySet<string>;
  /** +1 (no nesting) each: a comprehension's `if`. */
  readonly flat: ReadonlySet<string>;
  /** break / continue statements: +1 when they name a label; goto always. */
  readonly jumps: ReadonlySet<string>;
  readonly calls: ReadonlySet<string>;
}

const s = (...xs: string[]): ReadonlySet<string> => new Set(xs);

const PYTHON: CognitiveSyntax = {
  structures: s(
    'for_statement',
    'while_statement',
    'except_clause',
    'except_group_clause',
    'conditional_expression',
    'match_statement',
    'for_in_clause',
  ),
  ifs: s('if_statement'),
  elseClauses: s('elif_clause', 'else_clause'),
  lambdas: s('lambda'),
  booleans: s('boolean_operator'),
  booleanOperators: s('and', 'or'),
  flat: s('if_clause'),
  jumps: s(),
  calls: s('call'),
};

const CURLY: CognitiveSyntax = {
  structures: s(
    'for_statement',
    'for_in_statement',
    'enhanced_for_statement',
    'while_statement',
    'do_statement',
    'catch_clause',
    'ternary_expression',
    'conditional_expression',
    'switch_statement',
    'switch_expression',
    'expression_switch_statement',
    'type_switch_statement',
    'select_statement',
    'match_expression',
    'while_expression',
    'for_expression',
    'loop_expression',
  ),
  ifs: s('if_statement', 'if_expression'),
  elseClauses: s(),
  lambdas: s(
    'arrow_function',
    'function_expression',
    'function',
    'func_literal',
    'lambda_expression',
    'closure_expression',
  ),
  booleans: s('binary_expression'),
  booleanOperators: s('&&', '||'),
  flat: s(),
  jumps: s('break_statement', 'continue_statement', 'goto_statement', 'break_expression', 'continue_expression'),
  calls: s('call_expression', 'method_invocation'),
};

class Cognitive {
  total = 0;
  private recursive = false;

  constructor(
    private readonly profile: LanguageProfile,
    private readonly syntax: CognitiveSyntax,
    private readonly name: string | undefined,
  ) {}

  finish(): number {
    return this.total + (this.recursive ? 1 : 0);
  }

  visit(node: SyntaxNodeLike, nesting: number): void {
    const t = node.type;
    const x = this.syntax;
    if (this.profile.comments.has(t)) return;
    if (
      this.profile.definition(node, false) ||
      (this.profile.wrappers.has(t) && namedChildren(node).some((c) => this.profile.definition(c, false)))
    )
      return;
    if (x.ifs.has(t)) return this.visitIf(node, nesting, false);
    if (x.structures.has(t)) {
      this.total += 1 + nesting;
      return this.children(node, nesting + 1, nesting);
    }
    if (x.flat.has(t)) this.total += 1;
    if (x.lambdas.has(t)) return this.children(node, nesting + 1);
    if (x.booleans.has(t) && this.isBoolean(node)) return this.visitBoolean(node, nesting);
    if (x.jumps.has(t) && (t === 'goto_statement' || namedChildren(node).some((c) => /label|identifier/.test(c.type))))
      this.total += 1;
    if (x.calls.has(t) && this.name !== undefined && this.calleeOf(node) === this.name) this.recursive = true;
    this.children(node, nesting);
  }

  /**
   * Children of a structure: its body one level deeper, but the parts that decide whether it runs
   * (a loop's or switch's header, the iterable of a comprehension) at the structure's own level.
   */
  private children(node: SyntaxNodeLike, nesting: number, headerNesting = nesting): void {
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i);
      if (!c || !c.isNamed) continue;
      const field = node.fieldNameForChild(i);
      const header =
        field === 'condition' ||
        field === 'value' ||
        field === 'right' ||
        field === 'left' ||
        field === 'initializer' ||
        field === 'update' ||
        field === 'subject';
      this.visit(c, header && headerNesting !== nesting ? headerNesting : nesting);
    }
  }

  private visitIf(node: SyntaxNodeLike, nesting: number, elseIf: boolean): void {
    this.total += elseIf ? 1 : 1 + nesting;
    const x = this.syntax;
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i);
      if (!c || !c.isNamed) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'condition') this.visit(c, nesting);
      else if (x.elseClauses.has(c.type)) {
        // Python: elif / else are +1 each, their bodies one level deeper.
        this.total += 1;
        for (let j = 0; j < c.childCount; j++) {
          const d = c.child(j);
          if (!d || !d.isNamed) continue;
          this.visit(d, c.fieldNameForChild(j) === 'condition' ? nesting : nesting + 1);
        }
      } else if (field === 'alternative') {
        const inner = c.type === 'else_clause' ? namedChildren(c).find((d) => !this.profile.comments.has(d.type)) : c;
        if (inner && x.ifs.has(inner.type)) this.visitIf(inner, nesting, true);
        else {
          this.total += 1;
          this.visit(inner ?? c, nesting + 1);
        }
      } else this.visit(c, nesting + 1);
    }
  }

  /** The function a call names, when it can be this one: `f(…)`, `self.f(…)`, `this.f(…)`. */
  private calleeOf(call: SyntaxNodeLike): string | undefined {
    if (call.type === 'method_invocation') {
      const object = call.childForFieldName('object')?.text;
      return object === undefined || object === 'this' ? call.childForFieldName('name')?.text : undefined;
    }
    const fn = call.childForFieldName('function')?.text ?? '';
    const m = /^(?:(?:self|this)\.)?([A-Za-z_$][\w$]*)$/.exec(fn);
    return m?.[1];
  }

  private isBoolean(node: SyntaxNodeLike): boolean {
    const op = node.childForFieldName('operator')?.type;
    return op !== undefined && this.syntax.booleanOperators.has(op);
  }

  /** One boolean expression: +1 per run of like operators in reading order (parentheses looked through). */
  private visitBoolean(node: SyntaxNodeLike, nesting: number): void {
    const operators: string[] = [];
    const operands: SyntaxNodeLike[] = [];
    const walk = (n: SyntaxNodeLike) => {
      const inner = n.type === 'parenthesized_expression' ? namedChildren(n)[0] : n;
      if (inner && this.syntax.booleans.has(inner.type) && this.isBoolean(inner)) {
        const left = inner.childForFieldName('left');
        const right = inner.childForFieldName('right');
        if (left) walk(left);
        operators.push(inner.childForFieldName('operator')!.type);
        if (right) walk(right);
      } else operands.push(n);
    };
    walk(node);
    this.total += operators.filter((op, i) => i === 0 || op !== operators[i - 1]).length;
    for (const o of operands) this.visit(o, nesting);
  }
}

/** Cognitive complexity of one function (its definition node). */
export function cognitiveComplexity(profile: LanguageProfile, def: SyntaxNodeLike): number {
  const syntax = profile.id === 'python' ? PYTHON : CURLY;
  const name = def.childForFieldName('name')?.text;
  const c = new Cognitive(profile, syntax, name);
  const body = def.childForFieldName('body') ?? def.childForFieldName('value');
  if (body) c.visit(body, 0);
  return c.finish();
}
