// A "not implemented" statement: what a person or a CodeThread PR0 skeleton writes where a body
// is still to come (docs/reference/drift.md, "Not-implemented statements"). It marks a body as
// unfinished (INCOMPLETE) and nothing else: it is not an exception the code raises on purpose
// (ERROR HANDLING), not an early exit (INPUT GATING) and not a return value (RETURN SHAPE).
import { normalizeCode } from './normalize';
import { namedChildren, type SyntaxNodeLike } from './syntax';

/** Exception types whose whole meaning is "not implemented" (Python, Java, and their kin). */
const NOT_IMPLEMENTED_TYPE = /(^|\.)(NotImplementedError|NotImplementedException|UnsupportedOperationException)$/;
/** The message of `throw new Error("not implemented")`, `panic("not implemented")`. */
const NOT_IMPLEMENTED_TEXT = /^\s*(not( yet)? implemented|unimplemented|todo)\b/i;
const STRINGS = /^(string|interpreted_string_literal|raw_string_literal|string_literal|template_string)$/;
const CALLS = new Set(['call', 'call_expression', 'method_invocation']);

function literalText(node: SyntaxNodeLike): string | undefined {
  if (!STRINGS.test(node.type)) return undefined;
  return node.text.replace(/^[`'"]+|[`'"]+$/g, '');
}

function firstArgument(call: SyntaxNodeLike): SyntaxNodeLike | undefined {
  const args = call.childForFieldName('arguments');
  return args ? namedChildren(args).find((a) => a.type !== 'comment') : undefined;
}

function constructedType(value: SyntaxNodeLike): string | undefined {
  if (CALLS.has(value.type)) return value.childForFieldName('function')?.text;
  if (value.type === 'new_expression') return value.childForFieldName('constructor')?.text;
  if (value.type === 'object_creation_expression') return value.childForFieldName('type')?.text;
  return undefined;
}

/**
 * The stub marker of a raise/throw statement that says "not implemented": a not-implemented
 * exception type (`raise NotImplementedError`, `throw new UnsupportedOperationException()`), or
 * any exception whose message says so (`throw new Error("not implemented")`).
 */
export function notImplementedRaise(exit: SyntaxNodeLike): string | undefined {
  const value = namedChildren(exit).find((c) => c.type !== 'comment');
  if (!value) return undefined;
  const verb = exit.type === 'throw_statement' ? 'throw' : 'raise';
  const type = normalizeCode(constructedType(value) ?? value.text);
  if (NOT_IMPLEMENTED_TYPE.test(type)) return `stub: ${verb} ${type}`;
  const arg = constructedType(value) === undefined ? undefined : firstArgument(value);
  const message = arg ? literalText(arg) : undefined;
  return message !== undefined && NOT_IMPLEMENTED_TEXT.test(message)
    ? `stub: ${verb} ${type}("not implemented")`
    : undefined;
}

/** `panic("not implemented")` (Go): the stub marker, or undefined for any other call. */
export function notImplementedCall(call: SyntaxNodeLike): string | undefined {
  if (!CALLS.has(call.type) || call.childForFieldName('function')?.text !== 'panic') return undefined;
  const arg = firstArgument(call);
  const message = arg ? literalText(arg) : undefined;
  return message !== undefined && NOT_IMPLEMENTED_TEXT.test(message) ? 'stub: panic("not implemented")' : undefined;
}

/** `todo!()`, `unimplemented!()` (Rust). */
export function notImplementedMacro(macro: SyntaxNodeLike): string | undefined {
  const name = macro.type === 'macro_invocation' ? macro.childForFieldName('macro')?.text : undefined;
  return name === 'todo' || name === 'unimplemented' ? `stub: ${name}!` : undefined;
}
