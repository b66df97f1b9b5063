import { isDocstring, type LanguageProfile } from './languages';
import { normalizeCode } from './normalize';
import { notImplementedCall, notImplementedMacro, notImplementedRaise } from './notImplemented';
import type { CodeSymbol, Fact, SymbolDetail } from './symbols';
import { namedChildren, type SyntaxNodeLike } from './syntax';

/** Calls whose point is output, logging or the outside world (EXTERNAL EFFECTS). */
const EFFECT_CALL =
  /^(print|pprint|open|input|console\.\w+|process\.(stdout|stderr)\.write|fmt\.(F?Print\w*)|System\.(out|err)\.\w+|warnings\.warn|sys\.(stdout|stderr)\.write|sys\.exit|os\.(remove|unlink|makedirs|mkdir|rmdir|rename|replace|system|chdir|putenv|environ\.\w+)|shutil\.\w+|subprocess\.\w+|(?:[\w.]+\.)?(?:log|logger|logging|_log|_logger|LOGGER|LOG|LOGGING)\.(debug|info|warning|warn|error|exception|critical|fatal|log|trace|Print\w*|Fatal\w*))$/;
const EFFECT_MACRO = /^(println|eprintln|print|eprint|dbg|log::\w+|info|warn|error|debug|trace)$/;
/** Methods that change their receiver in place. */
const MUTATORS = new Set([
  'append',
  'extend',
  'insert',
  'update',
  'pop',
  'remove',
  'clear',
  'setdefault',
  'add',
  'discard',
  'sort',
  'reverse',
  'push',
  'splice',
  'set',
  'delete',
  'put',
  'putAll',
  'removeIf',
]);
/** Coercions that silently turn a bad input into some value (SILENT FALLBACK). */
const COERCIONS = new Set([
  'int',
  'str',
  'float',
  'bool',
  'list',
  'tuple',
  'dict',
  'set',
  'bytes',
  'Number',
  'String',
  'Boolean',
  'parseInt',
  'parseFloat',
]);
const LITERAL =
  /^(string|concatenated_string|integer|float|number|true|false|none|null|undefined|nil|list|dictionary|tuple|set|array|object|template_string|interpreted_string_literal|raw_string_literal|string_literal|int_literal|decimal_integer_literal|float_literal|integer_literal|boolean_literal|unit_expression)$/;
const TODO = /\b(TODO|FIXME|XXX)\b/;
const ASSIGNMENTS = new Set([
  'assignment',
  'augmented_assignment',
  'assignment_expression',
  'augmented_assignment_expression',
  'assignment_statement',
  'short_var_declaration',
  'variable_declarator',
  'let_declaration',
  'compound_assignment_expr',
]);
const CALLS = new Set(['call', 'call_expression', 'method_invocation']);
const IDENTIFIER = /^(identifier|shorthand_property_identifier)$/;
const NOT_A_USE_FIELDS = new Set(['attribute', 'property', 'field', 'name', 'type']);

interface Context {
  /** Conditions (normalised) of enclosing branches, outermost first; `not(c)` on else paths. */
  readonly conds: readonly string[];
  readonly condIds: readonly string[];
  /** Line of the innermost enclosing condition. */
  readonly condLine?: number;
  readonly inHandler: boolean;
}

interface Write {
  readonly defs: string[];
  readonly uses: string[];
  readonly condIds: readonly string[];
  readonly key: string;
  readonly line: number;
  /** Line of the innermost condition the write runs under, if any. */
  readonly condLine?: number;
}

const line = (n: SyntaxNodeLike) => n.startPosition.row + 1;

/** Identifiers read by an expression (attribute and keyword names are not reads). */
function identifiersIn(node: SyntaxNodeLike, out: string[] = []): string[] {
  if (IDENTIFIER.test(node.type)) {
    out.push(node.text);
    return out;
  }
  for (let i = 0, n = node.childCount; i < n; i++) {
    const c = node.child(i);
    if (!c) continue;
    const field = node.fieldNameForChild(i);
    if (field && NOT_A_USE_FIELDS.has(field) && c.type !== 'call') continue;
    if (c.type === 'keyword_argument') {
      const v = c.childForFieldName('value');
      if (v) identifiersIn(v, out);
      continue;
    }
    identifiersIn(c, out);
  }
  return out;
}

/** The leftmost identifier of `a.b[c].d` (the object written through). */
function rootName(node: SyntaxNodeLike): string | undefined {
  let n: SyntaxNodeLike | null = node;
  while (n && !IDENTIFIER.test(n.type) && n.type !== 'self' && n.type !== 'this') {
    n =
      n.childForFieldName('object') ??
      n.childForFieldName('value') ??
      n.childForFieldName('operand') ??
      n.childForFieldName('argument') ??
      n.child(0);
  }
  return n?.text;
}

function callee(node: SyntaxNodeLike): SyntaxNodeLike | null {
  if (node.type === 'method_invocation') return node;
  return node.childForFieldName('function');
}

function calleeName(node: SyntaxNodeLike): string {
  if (node.type === 'method_invocation') {
    const obj = node.childForFieldName('object');
    const name = node.childForFieldName('name')?.text ?? '';
    return obj ? `${obj.text}.${name}` : name;
  }
  return node.childForFieldName('function')?.text ?? '';
}

/** Calls whose result is a number computed from numbers (rounding, sizes, extremes). */
const NUMERIC_CALL = /^(round|abs|len|sum|min|max|divmod|pow|(math|Math)\.\w+)$/;
const ARITHMETIC = new Set(['+', '-', '*', '/', '//', '%', '**']);

/**
 * `int(a / b)`, `int(round(x))`: converting a number the code computed is not a fallback for a
 * bad input (SILENT FALLBACK is an input turned into some value instead of an error); counting
 * it flagged SWE-agent's rounding fix of marshmallow-1867 (docs/reference/drift.md).
 */
function computesNumber(arg: SyntaxNodeLike): boolean {
  if (arg.type === 'parenthesized_expression') {
    const inner = namedChildren(arg)[0];
    return inner !== undefined && computesNumber(inner);
  }
  if (arg.type === 'binary_operator' || arg.type === 'binary_expression') {
    const op = arg.childForFieldName('operator')?.text ?? '';
    return ARITHMETIC.has(op);
  }
  if (CALLS.has(arg.type)) return NUMERIC_CALL.test(calleeName(arg));
  return false;
}

function argumentsOf(node: SyntaxNodeLike): SyntaxNodeLike[] {
  const args = node.childForFieldName('arguments');
  return args ? namedChildren(args).filter((a) => a.type !== 'comment') : [];
}

/** The exception a raise/throw names: `ValueError`, `new Error` → Error; bare `raise` → re-raise. */
function exceptionType(exit: SyntaxNodeLike): string {
  const value = namedChildren(exit).find((c) => c.type !== 'comment');
  if (!value) return 're-raise';
  if (CALLS.has(value.type)) return normalizeCode(calleeName(value));
  if (value.type === 'new_expression') return normalizeCode(value.childForFieldName('constructor')?.text ?? value.text);
  if (value.type === 'object_creation_expression')
    return normalizeCode(value.childForFieldName('type')?.text ?? value.text);
  return normalizeCode(value.text);
}

/** A coarse type of a returned expression: what callers could notice changing. */
export function returnShape(expr: SyntaxNodeLike | undefined): string {
  if (!expr) return 'None';
  const t = expr.type;
  if (t === 'parenthesized_expression' || t === 'await' || t === 'await_expression') {
    const inner = namedChildren(expr)[0];
    return inner ? returnShape(inner) : 'value';
  }
  if (/^(none|null|undefined|nil|unit_expression)$/.test(t)) return 'None';
  if (t === 'expression_list' || t === 'tuple' || t === 'tuple_expression')
    return `tuple/${namedChildren(expr).length}`;
  if (/^(list|array|list_comprehension|array_creation_expression|array_expression)$/.test(t)) return 'list';
  if (t === 'dictionary' || t === 'object') {
    const keys = namedChildren(expr)
      .map((p) => p.childForFieldName('key')?.text ?? (p.type === 'shorthand_property_identifier' ? p.text : '…'))
      .map((k) => k.replace(/["']/g, ''))
      .sort();
    return `dict{${keys.join(',')}}`;
  }
  if (t === 'dictionary_comprehension') return 'dict';
  if (t === 'set' || t === 'set_comprehension') return 'set';
  if (t === 'generator_expression') return 'generator';
  if (/string|template/.test(t)) return 'str';
  if (/^(integer|float|number|int_literal|float_literal|decimal_integer_literal|integer_literal)$/.test(t))
    return 'number';
  if (/^(true|false|boolean_literal)$/.test(t)) return 'bool';
  if (t === 'conditional_expression' || t === 'ternary_expression') {
    const branches = namedChildren(expr);
    const shapes = new Set(
      t === 'conditional_expression'
        ? [branches[0], branches[2]].map(returnShape)
        : [branches[1], branches[2]].map(returnShape),
    );
    return [...shapes].sort().join('|');
  }
  if (t === 'new_expression' || t === 'object_creation_expression')
    return `new ${(expr.childForFieldName('constructor') ?? expr.childForFieldName('type'))?.text ?? '?'}`;
  if (CALLS.has(t)) {
    const name = calleeName(expr).split('.').pop() ?? '';
    // Calling a class builds an instance of it: that is a shape; other calls are just values.
    return /^[A-Z]/.test(name) ? `new ${name}` : 'value';
  }
  return 'value';
}

function parameterNames(def: SyntaxNodeLike): Set<string> {
  const names = new Set<string>();
  const params = def.childForFieldName('parameters');
  if (!params) return names;
  for (const p of namedChildren(params)) {
    const named = IDENTIFIER.test(p.type)
      ? p
      : (p.childForFieldName('name') ?? p.childForFieldName('pattern') ?? p.childForFieldName('left') ?? p);
    const text = IDENTIFIER.test(named.type) ? named.text : identifiersIn(named)[0];
    if (text) names.add(text);
  }
  return names;
}

class Extractor {
  private readonly gates: Fact[] = [];
  private readonly gateIds = new Set<string>();
  private readonly writes: Write[] = [];
  private readonly fallbacks: Fact[] = [];
  private readonly handlers: Fact[] = [];
  private readonly raised: Fact[] = [];
  private readonly returns: Fact[] = [];
  private readonly effects: Fact[] = [];
  private readonly stubs: Fact[] = [];
  private notImplemented = false;
  private readonly sig: string[] = [];
  private cyclomatic = 1;
  private lloc = 0;
  private readonly globals = new Set<string>();
  private readonly owners: Set<string>;

  constructor(
    private readonly profile: LanguageProfile,
    def: SyntaxNodeLike,
    /** Count cyclomatic complexity and logical lines only: no facts, no signature. */
    private readonly metricsOnly = false,
  ) {
    this.owners = metricsOnly ? new Set() : new Set([...parameterNames(def), 'self', 'cls', 'this']);
  }

  metrics(def: SyntaxNodeLike): SymbolMetricsOnly {
    this.visit(def, NO_CONTEXT, true, 0);
    return { cyclomatic: this.cyclomatic, lloc: this.lloc };
  }

  run(def: SyntaxNodeLike, symbol: CodeSymbol, text: string): SymbolDetail {
    this.visit(def, { conds: [], condIds: [], inHandler: false }, true, 0);
    this.checkStubBody(def);
    return {
      symbol,
      signature: this.sig.join(' '),
      text,
      cyclomatic: this.cyclomatic,
      lloc: this.lloc,
      gates: this.gates,
      gateInputs: this.slice(),
      fallbacks: this.fallbacks,
      handlers: this.handlers,
      raised: dedupe(this.raised),
      returns: dedupe(this.returns),
      effects: this.effects,
      stubs: this.stubs,
      notImplemented: this.notImplemented,
    };
  }

  private visit(node: SyntaxNodeLike, ctx: Context, isRoot: boolean, indexInBlock: number): void {
    const p = this.profile;
    if (p.comments.has(node.type)) {
      if (!this.metricsOnly && TODO.test(node.text))
        this.stubs.push({ key: `todo: ${normalizeCode(node.text)}`, lines: [line(node)] });
      return;
    }
    if (
      !isRoot &&
      (p.definition(node, false) ||
        (p.wrappers.has(node.type) && namedChildren(node).some((c) => p.definition(c, false))))
    ) {
      // Nested symbols are analysed on their own; here they are one opaque token.
      if (!this.metricsOnly) this.sig.push(`<def ${node.childForFieldName('name')?.text ?? ''}>`);
      return;
    }
    if (isDocstring(p, node, indexInBlock)) return;

    this.cyclomatic += p.decisions(node);
    if (p.isLogicalLine(node.type) && !isRoot) this.lloc++;
    if (node.childCount === 0) {
      if (!this.metricsOnly) this.sig.push(node.text);
      return;
    }
    if (this.metricsOnly) {
      // The same nodes as below are visited (conditionals visit every child too), without facts.
      this.visitChildren(node, ctx);
      return;
    }
    if (node.isNamed) this.sig.push(`(${node.type}`);
    this.observe(node, ctx);

    if (p.conditionals.has(node.type)) this.visitConditional(node, ctx);
    else if (p.handlers.has(node.type) || node.type === 'finally_clause')
      this.visitChildren(node, { ...ctx, inHandler: true });
    else this.visitChildren(node, ctx);
    if (node.isNamed) this.sig.push(')');
  }

  private visitChildren(node: SyntaxNodeLike, ctx: Context): void {
    let index = 0;
    const isBlock = node.type === 'block';
    for (let i = 0, n = node.childCount; i < n; i++) {
      const c = node.child(i);
      if (!c) continue;
      this.visit(c, ctx, false, isBlock ? index : -1);
      if (c.isNamed && !this.profile.comments.has(c.type)) index++;
    }
  }

  /** if / elif / else: the consequence runs under the condition, alternatives under its negation. */
  private visitConditional(node: SyntaxNodeLike, ctx: Context): void {
    const cond = node.childForFieldName('condition');
    const c = cond ? normalizeCode(cond.text) : '?';
    const ids = cond ? identifiersIn(cond) : [];
    const negs: string[] = [`not(${c})`];
    for (let i = 0, n = node.childCount; i < n; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'consequence') {
        this.visit(
          child,
          {
            conds: [...ctx.conds, c],
            condIds: [...ctx.condIds, ...ids],
            condLine: cond ? line(cond) : ctx.condLine,
            inHandler: ctx.inHandler,
          },
          false,
          -1,
        );
      } else if (field === 'alternative') {
        const altCond = child.type === 'elif_clause' ? child.childForFieldName('condition') : null;
        this.visit(
          child,
          {
            conds: [...ctx.conds, ...negs],
            condIds: [...ctx.condIds, ...ids],
            condLine: cond ? line(cond) : ctx.condLine,
            inHandler: ctx.inHandler,
          },
          false,
          -1,
        );
        if (altCond) negs.push(`not(${normalizeCode(altCond.text)})`);
      } else {
        this.visit(child, ctx, false, -1);
      }
    }
  }

  /** Facts that a node gives by itself (its children are visited by the caller). */
  private observe(node: SyntaxNodeLike, ctx: Context): void {
    const t = node.type;
    const exit = this.profile.exits[t];
    if (exit) this.observeExit(node, exit, ctx);
    if (this.profile.handlers.has(t)) {
      const body = namedChildren(node).filter(
        (c) => c.type !== 'block' && c.type !== 'statement_block' && !this.profile.comments.has(c.type),
      );
      const types =
        body.length === 0
          ? '(any)'
          : normalizeCode(
              body.map((b) => (b.type === 'as_pattern' ? (namedChildren(b)[0]?.text ?? b.text) : b.text)).join(' '),
            );
      this.handlers.push({ key: `except ${types}`, lines: [line(node)] });
    } else if (t === 'finally_clause') {
      this.handlers.push({ key: 'finally', lines: [line(node)] });
    } else if (t === 'global_statement' || t === 'nonlocal_statement') {
      const names = namedChildren(node).map((c) => c.text);
      names.forEach((n) => this.globals.add(n));
      this.effects.push({
        key: `${t === 'global_statement' ? 'global' : 'nonlocal'} ${names.join(',')}`,
        lines: [line(node)],
      });
    } else if (ASSIGNMENTS.has(t)) {
      this.observeAssignment(node, ctx);
    } else if (CALLS.has(t)) {
      const stub = notImplementedCall(node);
      if (stub) this.stubs.push({ key: stub, lines: [line(node)] });
      else this.observeCall(node, ctx);
    } else if (t === 'macro_invocation') {
      const name = node.childForFieldName('macro')?.text ?? '';
      if (EFFECT_MACRO.test(name)) this.effects.push({ key: `call ${name}!`, lines: [line(node)] });
      const stub = notImplementedMacro(node);
      if (stub) this.stubs.push({ key: stub, lines: [line(node)] });
    } else if (t === 'boolean_operator' || t === 'binary_expression') {
      const op = node.childForFieldName('operator')?.type;
      const right = node.childForFieldName('right');
      if ((op === 'or' || op === '||' || op === '??') && right && LITERAL.test(right.type)) {
        this.fallbacks.push({ key: normalizeCode(node.text), lines: [line(node)] });
      }
    } else if (t === 'yield' || t === 'yield_expression') {
      this.returns.push({ key: 'generator', lines: [line(node)] });
    }
  }

  private observeExit(node: SyntaxNodeLike, exit: 'raise' | 'return' | 'assert', ctx: Context): void {
    const at = line(node);
    if (exit === 'raise') {
      // A not-implemented statement is a stub marker only: no raised type, gate or handler.
      const stub = notImplementedRaise(node);
      if (stub) {
        this.stubs.push({ key: stub, lines: [at] });
        return;
      }
      const type = exceptionType(node);
      this.raised.push({ key: `raises ${type}`, lines: [at] });
      if (ctx.inHandler)
        this.handlers.push({ key: `in handler: ${type === 're-raise' ? 're-raise' : `raise ${type}`}`, lines: [at] });
      else if (ctx.conds.length > 0) this.addGate(`raise ${type}`, at, ctx);
    } else if (exit === 'return') {
      const value = namedChildren(node).find((c) => !this.profile.comments.has(c.type));
      this.returns.push({ key: returnShape(value), lines: [at] });
      if (ctx.conds.length > 0 && !ctx.inHandler) this.addGate('return', at, ctx);
    } else {
      const cond = namedChildren(node)[0];
      const c = cond ? normalizeCode(cond.text) : '?';
      this.addGate(`assert ${c}`, at, ctx, cond ? identifiersIn(cond) : []);
    }
  }

  private addGate(exitKey: string, at: number, ctx: Context, extraIds: string[] = []): void {
    const lines = ctx.condLine !== undefined && ctx.condLine !== at ? [ctx.condLine, at] : [at];
    this.gates.push({ key: `${ctx.conds.join(' && ')} => ${exitKey}`, lines });
    for (const id of [...ctx.condIds, ...extraIds]) this.gateIds.add(id);
  }

  private observeAssignment(node: SyntaxNodeLike, ctx: Context): void {
    const left = node.childForFieldName('left') ?? node.childForFieldName('name') ?? node.childForFieldName('pattern');
    const right = node.childForFieldName('right') ?? node.childForFieldName('value');
    if (!left) return;
    const defs = IDENTIFIER.test(left.type)
      ? [left.text]
      : left.type.includes('pattern') || left.type.includes('list') || left.type === 'tuple'
        ? identifiersIn(left)
        : [];
    const root = rootName(left);
    if (!IDENTIFIER.test(left.type) && root !== undefined) {
      // Writing through a parameter is an effect; through a local it changes what checks read.
      if (!this.owners.has(root)) defs.push(root);
      if (this.owners.has(root))
        this.effects.push({
          key: `write ${normalizeCode(left.text).replace(/\[[^\]]*\]/g, '[]')}`,
          lines: [line(node)],
        });
    } else if (IDENTIFIER.test(left.type) && this.globals.has(left.text)) {
      this.effects.push({ key: `write global ${left.text}`, lines: [line(node)] });
    }
    const uses = right ? identifiersIn(right) : [];
    if (node.type.startsWith('augmented') || node.type === 'compound_assignment_expr') uses.push(...defs);
    this.writes.push({
      defs,
      uses,
      condIds: ctx.condIds,
      key: `${ctx.conds.join(' && ')} :: ${normalizeCode(node.text)}`,
      line: line(node),
      condLine: ctx.condLine,
    });
  }

  private observeCall(node: SyntaxNodeLike, ctx: Context): void {
    const name = calleeName(node);
    const args = argumentsOf(node);
    const positional = args.filter((a) => a.type !== 'keyword_argument');
    const at = line(node);
    if (EFFECT_CALL.test(name)) this.effects.push({ key: `call ${name}`, lines: [at] });
    const method = name.split('.').pop() ?? '';
    const fn = callee(node);
    if (
      (method === 'get' && name.includes('.') && positional.length >= 2) ||
      (name === 'getattr' && positional.length === 3) ||
      (COERCIONS.has(name) && args.length === 1 && !LITERAL.test(args[0].type) && !computesNumber(args[0]))
    ) {
      this.fallbacks.push({ key: normalizeCode(node.text), lines: [at] });
    }
    if (MUTATORS.has(method) && name.includes('.') && fn) {
      const target =
        fn.type === 'method_invocation'
          ? fn.childForFieldName('object')
          : (fn.childForFieldName('object') ?? fn.childForFieldName('operand') ?? fn.childForFieldName('value'));
      const root = target ? rootName(target) : undefined;
      if (root !== undefined) {
        if (this.owners.has(root) || this.globals.has(root))
          this.effects.push({ key: `mutate ${normalizeCode(target!.text)}.${method}`, lines: [at] });
        if (!this.owners.has(root))
          this.writes.push({
            defs: [root],
            uses: args.flatMap((a) => identifiersIn(a)),
            condIds: ctx.condIds,
            key: `${ctx.conds.join(' && ')} :: ${normalizeCode(node.text)}`,
            line: at,
            condLine: ctx.condLine,
          });
      }
    }
  }

  /** A body that does nothing yet: only pass / `...` (after the docstring). */
  private checkStubBody(def: SyntaxNodeLike): void {
    const body = def.childForFieldName('body');
    if (!body) return;
    const statements = namedChildren(body).filter(
      (c, i) => !this.profile.comments.has(c.type) && !isDocstring(this.profile, c, i),
    );
    if (statements.length === 0) {
      if (this.profile.definition(def, false)?.kind !== 'class')
        this.stubs.push({ key: 'stub: empty body', lines: [line(body)] });
      return;
    }
    const trivial = statements.every(
      (s) => s.type === 'pass_statement' || (s.type === 'expression_statement' && s.text.trim() === '...'),
    );
    if (statements.length > 0 && trivial) this.stubs.push({ key: 'stub: pass', lines: [line(statements[0])] });
    // The body a PR0 skeleton leaves: a not-implemented statement, after at most the
    // constructor delegation the language requires (`super(...)`, `this(...)`).
    const marked = statements.filter((s) => isNotImplementedStatement(s));
    this.notImplemented =
      marked.length > 0 &&
      statements.every((s) => marked.includes(s) || isConstructorDelegation(s) || s.type === 'pass_statement');
  }

  /** Writes that feed gate conditions, directly or through other names (fixpoint over names). */
  private slice(): Fact[] {
    const relevant = new Set(this.gateIds);
    const taken = new Set<Write>();
    let changed = true;
    while (changed) {
      changed = false;
      for (const w of this.writes) {
        if (taken.has(w) || !w.defs.some((d) => relevant.has(d))) continue;
        taken.add(w);
        for (const u of [...w.uses, ...w.condIds]) relevant.add(u);
        changed = true;
      }
    }
    return this.writes
      .filter((w) => taken.has(w))
      .map((w) => ({
        key: w.key,
        lines: w.condLine !== undefined && w.condLine !== w.line ? [w.condLine, w.line] : [w.line],
      }));
  }
}

function isNotImplementedStatement(statement: SyntaxNodeLike): boolean {
  if (statement.type === 'raise_statement' || statement.type === 'throw_statement')
    return notImplementedRaise(statement) !== undefined;
  const inner = statement.type === 'expression_statement' ? namedChildren(statement)[0] : statement;
  if (!inner || (statement.type === 'expression_statement' && namedChildren(statement).length !== 1)) return false;
  return notImplementedCall(inner) !== undefined || notImplementedMacro(inner) !== undefined;
}

/** `super(...)` / `this(...)` opening a constructor: kept in a skeleton, so not part of a body. */
function isConstructorDelegation(statement: SyntaxNodeLike): boolean {
  if (statement.type === 'explicit_constructor_invocation') return true;
  const call = statement.type === 'expression_statement' ? namedChildren(statement)[0] : undefined;
  const fn = call && CALLS.has(call.type) ? call.childForFieldName('function') : null;
  return fn?.type === 'super' || fn?.type === 'this';
}

function dedupe(facts: Fact[]): Fact[] {
  const byKey = new Map<string, Fact>();
  for (const f of facts) if (!byKey.has(f.key)) byKey.set(f.key, f);
  return [...byKey.values()];
}

const NO_CONTEXT: Context = { conds: [], condIds: [], inHandler: false };

export interface SymbolMetricsOnly {
  readonly cyclomatic: number;
  readonly lloc: number;
}

/** Cyclomatic complexity and logical lines of one symbol: the same numbers as its full details. */
export function extractMetrics(profile: LanguageProfile, def: SyntaxNodeLike): SymbolMetricsOnly {
  return new Extractor(profile, def, true).metrics(def);
}

/** Details of one symbol from its definition node (nested symbols excluded). */
export function extractDetail(
  profile: LanguageProfile,
  def: SyntaxNodeLike,
  symbol: CodeSymbol,
  text: string,
): SymbolDetail {
  return new Extractor(profile, def).run(def, symbol, text);
}
