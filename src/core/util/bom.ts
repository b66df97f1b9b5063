/**
 * A UTF-8 byte order mark at the start of a file is not content (editors on Windows write one).
 * Every reader of a file a person gives drops it, so a file is accepted with or without one
 * whichever command reads it (docs/reference/cli.md).
 */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
