// The behaviour-bearing form of the facts drift compares, so that the same behaviour written
// another way compares equal (docs/reference/drift.md):
//   - a branch of an if/elif chain is known by its own condition, not by the negations of the
//     branches written before it: putting the checks in another order changes nothing;
//   - a negated comparison is the comparison turned round (`not(a is None)` is `a is not None`),
//     and `x if not c else y` is `y if c else x`;
//   - `a, b = x, y` is two assignments, and of the statements feeding a check only the
//     assignments to names the checks read (directly or through other such names) count: a flag
//     set beside the value a check reads (`negative, cleaned = True, …`) is not input gating.
import type { Fact } from './symbols';

const SYNTHETIC_NEGATION = /^not\((.*)\)$/s;

/** Top-level comma split (outside brackets and quotes): `a, f(b, c)` -> [`a`, `f(b, c)`]. */
function splitTopLevel(text: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      out.push(text.slice(start, i));
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** The comparison a negation means, when it is a simple one (else the negation as written). */
export function negate(condition: string): string {
  const c = condition.trim();
  if (/^not[ (]/.test(c) && SYNTHETIC_NEGATION.test(c)) return c.replace(SYNTHETIC_NEGATION, '$1');
  if (c.startsWith('not ')) return c.slice(4);
  if (/ is not /.test(c) && splitTopLevel(c, ' is not ').length === 2) return c.replace(' is not ', ' is ');
  if (/ is /.test(c) && splitTopLevel(c, ' is ').length === 2) return c.replace(' is ', ' is not ');
  if (/ not in /.test(c) && splitTopLevel(c, ' not in ').length === 2) return c.replace(' not in ', ' in ');
  for (const [op, inverse] of [
    ['!=', '=='],
    ['==', '!='],
    ['<=', '>'],
    ['>=', '<'],
  ] as const)
    if (splitTopLevel(c, op).length === 2) return c.replace(op, inverse);
  return `not(${c})`;
}

/** A condition in one canonical polarity: `not(a is None)` -> `a is not None`. */
function canonicalCondition(condition: string): string {
  const m = SYNTHETIC_NEGATION.exec(condition.trim());
  if (!m) return condition.trim();
  const inner = m[1];
  const turned = negate(inner);
  return turned === `not(${inner})` ? condition.trim() : turned;
}

/** `x if not c else y` -> `y if c else x`, so both spellings of one choice compare equal. */
function canonicalValue(value: string): string {
  const parts = splitTopLevel(value, ' if ');
  if (parts.length !== 2) return value;
  const rest = splitTopLevel(parts[1], ' else ');
  if (rest.length !== 2) return value;
  const [then, cond, otherwise] = [parts[0], rest[0], rest[1]];
  const turned = negate(cond);
  const negative = /^not[ (]|!=| is not | not in /.test(cond);
  return negative && !turned.startsWith('not(') ? `${otherwise} if ${turned} else ${then}` : value;
}

/**
 * The path conditions of a fact: the branch's own conditions, without the negations of the
 * if/elif branches before it (a negation followed by a condition is such a chain); an `else`
 * keeps its negation. Sorted, so nesting order does not matter either.
 */
export function branchConditions(conds: readonly string[]): string[] {
  const kept = conds.filter(
    (c, i) => !(SYNTHETIC_NEGATION.test(c) && conds.slice(i + 1).some((d) => !SYNTHETIC_NEGATION.test(d))),
  );
  return kept.map(canonicalCondition).sort();
}

/** `conds && … => exit` (gates) or `conds && … :: statement` (statements feeding the checks). */
function splitFact(key: string, marker: ' => ' | ' :: '): { conds: string[]; rest: string } {
  const at = key.lastIndexOf(marker);
  const head = at < 0 ? '' : key.slice(0, at);
  return { conds: head === '' ? [] : head.split(' && '), rest: at < 0 ? key : key.slice(at + marker.length) };
}

export function canonicalGates(gates: readonly Fact[]): Fact[] {
  return gates.map((g) => {
    const { conds, rest } = splitFact(g.key, ' => ');
    return { key: `${branchConditions(conds).join(' && ')} => ${rest}`, lines: g.lines };
  });
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

function identifiers(text: string): string[] {
  // Quoted text is not a name.
  return text.replace(/'(?:\\.|[^'\\])*'/g, "''").match(IDENTIFIER) ?? [];
}

/** Index of the statement's assignment `=` (top level, not part of `==`, `<=`, `+=`, …), or -1. */
function assignmentAt(statement: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < statement.length; i++) {
    const ch = statement[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (depth === 0 && ch === '=') {
      if (statement[i + 1] === '=' || '=<>!+-*/%&|^:'.includes(statement[i - 1] ?? '')) return -1;
      return i;
    }
  }
  return -1;
}

/** One `target = value` per name an assignment statement writes, or the statement itself. */
function assignments(statement: string): { target: string | null; value: string }[] {
  const at = assignmentAt(statement);
  if (at < 0) return [{ target: null, value: statement }];
  const left = statement.slice(0, at);
  const right = statement.slice(at + 1);
  const targets = splitTopLevel(left, ',');
  const values = splitTopLevel(right, ',');
  if (targets.length > 1 && targets.length === values.length)
    return targets.map((t, i) => ({ target: t.trim(), value: canonicalValue(values[i].trim()) }));
  return [{ target: left.trim(), value: canonicalValue(right.trim()) }];
}

/**
 * The statements feeding the checks, in behaviour-bearing form: one fact per assignment to a name
 * the checks read (the gates' conditions, then through the values assigned to such names), keyed
 * by its branch conditions and `target = value`.
 */
export function canonicalGateInputs(inputs: readonly Fact[], gates: readonly Fact[]): Fact[] {
  const parts = inputs.flatMap((f) => {
    const { conds, rest } = splitFact(f.key, ' :: ');
    const branch = branchConditions(conds);
    return assignments(rest).map((a) => ({ ...a, branch, lines: f.lines }));
  });
  const relevant = new Set(gates.flatMap((g) => splitFact(g.key, ' => ').conds.flatMap(identifiers)));
  const kept = new Set<(typeof parts)[number]>();
  for (let changed = true; changed;) {
    changed = false;
    for (const p of parts) {
      if (kept.has(p)) continue;
      const written = p.target === null ? [] : identifiers(p.target.replace(/\[.*$/s, '').replace(/\..*$/s, ''));
      if (p.target !== null && !written.some((w) => relevant.has(w))) continue;
      kept.add(p);
      for (const id of [...identifiers(p.value), ...p.branch.flatMap(identifiers)]) relevant.add(id);
      changed = true;
    }
  }
  return parts
    .filter((p) => kept.has(p))
    .map((p) => ({
      key: `${p.branch.join(' && ')} :: ${p.target === null ? p.value : `${p.target}=${p.value}`}`,
      lines: p.lines,
    }));
}
