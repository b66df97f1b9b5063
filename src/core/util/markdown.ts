/**
 * Text shown literally inside Markdown (CommonMark's backslash escapes, §2.4): a symbol named
 * `__init__` would otherwise render as a bold "init", and `a*b` as emphasis.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}
