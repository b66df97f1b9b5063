// Halstead counts of a Python function as radon's HalsteadVisitor makes them (radon 6.0.1,
// radon/visitors.py; docs/reference/maintainability.md). Only five kinds of node hold operators:
// a binary operation (1 operator, 2 operands), a unary one (`-x`, `not x`: 1, 1), a boolean
// operation (1 operator, one operand per value: `a and b and c` is one operation of 3 values),
// an augmented assignment (1, 2) and a comparison (one operator per comparison, operands
// left + comparators). An operand is known by its name (a variable), its attribute name (`x.y` is
// `y`), or its value (a constant; `1`, `1.0` and `True` are one value, as in a Python set, and
// so are the name `x` and the string 'x'); any other expression (a call, a subscript, an inner
// operation) is an operand of its own, equal to no other. The body only: decorators and
// default values are not counted; a nested function's body is.
import { namedChildren, type SyntaxNodeLike } from '../syntax';
import { HalsteadTally, type HalsteadCounts } from './halstead';

const BINARY = new Set(['binary_operator']);
const AUGMENTED: Record<string, string> = {
  '+=': '+',
  '-=': '-',
  '*=': '*',
  '/=': '/',
  '//=': '//',
  '%=': '%',
  '**=': '**',
  '>>=': '>>',
  '<<=': '<<',
  '&=': '&',
  '|=': '|',
  '^=': '^',
  '@=': '@',
};

function unwrap(node: SyntaxNodeLike): SyntaxNodeLike {
  let n = node;
  while (n.type === 'parenthesized_expression') {
    const inner = namedChildren(n).find((c) => c.type !== 'comment');
    if (!inner) break;
    n = inner;
  }
  return n;
}

/** A string literal's value, or undefined for an f-string (radon's JoinedStr, an object). */
function stringValue(node: SyntaxNodeLike): string | undefined {
  const parts = node.type === 'concatenated_string' ? namedChildren(node) : [node];
  let value = '';
  let bytes = false;
  for (const p of parts) {
    if (namedChildren(p).some((c) => c.type === 'interpolation')) return undefined;
    const m = /^([A-Za-z]*)('''|"""|'|")([\s\S]*)\2$/.exec(p.text);
    if (!m) return undefined;
    bytes ||= /b/i.test(m[1]);
    value += m[3];
  }
  return `${bytes ? 'b' : 's'}:${value}`;
}

function numberValue(text: string): string {
  const t = text.replace(/_/g, '');
  if (/[jJ]$/.test(t)) return `c:${t}`;
  const n = /^0[oO]/.test(t) ? parseInt(t.slice(2), 8) : /^0[bB]/.test(t) ? parseInt(t.slice(2), 2) : Number(t);
  return `s:${Number.isNaN(n) ? t : n}`.replace(/^s:/, 'n:');
}

export class PythonHalstead {
  private readonly tally = new HalsteadTally();
  private unique = 0;
  /** radon keys operands by the function they are in: a nested function's `x` is another `x`. */
  private context = '';

  /** Counts of the function's body. */
  static of(def: SyntaxNodeLike): HalsteadCounts {
    const h = new PythonHalstead();
    h.visitFunction(def);
    return h.tally.counts();
  }

  /** radon's visit_FunctionDef: the body only (no decorators, defaults or annotations). */
  private visitFunction(def: SyntaxNodeLike): void {
    const outer = this.context;
    this.context = def.childForFieldName('name')?.text ?? '';
    const body = def.childForFieldName('body');
    if (body) this.visit(body);
    this.context = outer;
  }

  private operandKey(node: SyntaxNodeLike): string {
    return `${this.context}\u0000${this.valueKey(unwrap(node))}`;
  }

  private valueKey(n: SyntaxNodeLike): string {
    switch (n.type) {
      case 'identifier':
        return `s:${n.text}`;
      case 'attribute':
        return `s:${n.childForFieldName('attribute')?.text ?? n.text}`;
      case 'integer':
      case 'float':
        return numberValue(n.text);
      case 'true':
        return 'n:1';
      case 'false':
        return 'n:0';
      case 'none':
        return 'None';
      case 'ellipsis':
        return 'Ellipsis';
      case 'string':
      case 'concatenated_string':
        return stringValue(n) ?? `#${this.unique++}`;
      default:
        return `#${this.unique++}`;
    }
  }

  private visit(node: SyntaxNodeLike): void {
    const t = node.type;
    if (t === 'function_definition') return this.visitFunction(node);
    if (t === 'decorated_definition') {
      const def = node.childForFieldName('definition');
      if (def?.type === 'function_definition') return this.visitFunction(def);
    }
    if (BINARY.has(t)) {
      this.tally.operator(node.childForFieldName('operator')?.type ?? '?');
      for (const side of ['left', 'right']) {
        const c = node.childForFieldName(side);
        if (c) this.tally.operand(this.operandKey(c));
      }
    } else if (t === 'unary_operator' || t === 'not_operator') {
      this.tally.operator(t === 'not_operator' ? 'not' : `unary ${node.childForFieldName('operator')?.type ?? '?'}`);
      const c = node.childForFieldName('argument');
      if (c) this.tally.operand(this.operandKey(c));
    } else if (t === 'boolean_operator') {
      this.visitBoolean(node);
      return;
    } else if (t === 'augmented_assignment') {
      const op = node.childForFieldName('operator')?.type ?? '?';
      this.tally.operator(AUGMENTED[op] ?? op);
      for (const side of ['left', 'right']) {
        const c = node.childForFieldName(side);
        if (c) this.tally.operand(this.operandKey(c));
      }
    } else if (t === 'comparison_operator') {
      const operands = namedChildren(node).filter((c) => c.type !== 'comment');
      for (let i = 1; i < operands.length; i++)
        this.tally.operator(operatorBetween(node, operands[i - 1], operands[i]));
      for (const c of operands) this.tally.operand(this.operandKey(c));
    }
    for (const c of namedChildren(node)) this.visit(c);
  }

  /** Python's AST flattens `a and b and c` into one operation: so does this, unless parenthesised. */
  private visitBoolean(node: SyntaxNodeLike): void {
    const op = node.childForFieldName('operator')?.type ?? '?';
    const values: SyntaxNodeLike[] = [];
    const collect = (n: SyntaxNodeLike) => {
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      if (left?.type === 'boolean_operator' && left.childForFieldName('operator')?.type === op) collect(left);
      else if (left) values.push(left);
      if (right) values.push(right);
    };
    collect(node);
    this.tally.operator(op);
    for (const v of values) this.tally.operand(this.operandKey(v));
    for (const v of values) this.visit(v);
  }
}

/** The comparison operator between two operands (`not in`, `is not` are one operator). */
function operatorBetween(node: SyntaxNodeLike, left: SyntaxNodeLike, right: SyntaxNodeLike): string {
  const words: string[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (!c || c.isNamed || c.startIndex < left.endIndex || c.endIndex > right.startIndex) continue;
    if (!words.includes(c.type)) words.push(c.type);
  }
  return words.join(' ');
}
