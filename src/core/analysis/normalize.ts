/**
 * Canonical text of a code fragment for comparing two versions: whitespace runs collapsed,
 * no spaces around punctuation, one quote style, no trailing commas. Two fragments that differ
 * only in layout compare equal.
 */
export function normalizeCode(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/ ?([^\w\s'"]) ?/g, '$1')
    .replace(/"/g, "'")
    .replace(/,([\])}])/g, '$1')
    .trim();
}

/** Shortens a line for a one-line reason. */
export function clip(text: string, max = 80): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}
