// Halstead counts of a function in the curly-brace languages, after rust-code-analysis
// (CodeThread's tool for Rust, Java, JavaScript and TypeScript, Table A3; its `halstead` metric,
// docs/reference/maintainability.md): every token of the function is an operand or an operator.
// Operands are names (identifiers of any kind, `this`, `self`) and literals (a string or template
// as one token, numbers, true/false/null/nil/undefined), known by their text; operators are all
// other tokens (keywords and punctuation), known by their text, except comments and the closing
// half of a bracket pair (`(…)` is one operator).
import type { LanguageProfile } from '../languages';
import type { SyntaxNodeLike } from '../syntax';
import { HalsteadTally, type HalsteadCounts } from './halstead';

const LITERAL =
  /^(string|template_string|interpreted_string_literal|raw_string_literal|string_literal|char_literal|rune_literal|character_literal|number|int_literal|float_literal|imaginary_literal|integer_literal|decimal_integer_literal|hex_integer_literal|octal_integer_literal|binary_integer_literal|decimal_floating_point_literal|boolean_literal|true|false|null|null_literal|nil|undefined|regex)$/;
const NAME = /identifier$|^(this|self|super)$/;
const CLOSERS = new Set([')', ']', '}']);

export function tokenHalstead(profile: LanguageProfile, def: SyntaxNodeLike): HalsteadCounts {
  const tally = new HalsteadTally();
  const walk = (n: SyntaxNodeLike) => {
    if (profile.comments.has(n.type)) return;
    if (LITERAL.test(n.type)) {
      tally.operand(n.text);
      return;
    }
    if (n.childCount === 0) {
      if (NAME.test(n.type)) tally.operand(n.text);
      else if (!CLOSERS.has(n.type) && n.text.trim() !== '') tally.operator(n.type);
      return;
    }
    for (let i = 0; i < n.childCount; i++) {
      const c = n.child(i);
      if (c) walk(c);
    }
  };
  walk(def);
  return tally.counts();
}
