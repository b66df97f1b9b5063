import type { LanguageId } from '../analysis/syntax';

/**
 * The idiomatic "not implemented" statement of each language the analysis parses: what a PR0
 * skeleton leaves in a target function's body (docs/reference/codethread.md). Each one type-checks
 * whatever the function returns: Python raises, JavaScript/TypeScript and Java throw, Go panics
 * (a terminating statement, so no `missing return`), Rust's `todo!()` has type `!`.
 */
const STATEMENTS: Record<LanguageId, string> = {
  python: 'raise NotImplementedError',
  javascript: 'throw new Error("not implemented");',
  typescript: 'throw new Error("not implemented");',
  tsx: 'throw new Error("not implemented");',
  go: 'panic("not implemented")',
  java: 'throw new UnsupportedOperationException();',
  rust: 'todo!()',
};

export function notImplementedStatement(language: LanguageId): string {
  return STATEMENTS[language];
}

/** One level of indentation when the body gives none to copy: Go is gofmt'ed with tabs. */
export function indentUnit(language: LanguageId, around: string): string {
  if (language === 'go' || around.includes('\t')) return '\t';
  return language === 'javascript' || language === 'typescript' || language === 'tsx' ? '  ' : '    ';
}
