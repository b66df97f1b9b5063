/** Quotes one word for bash; plain paths stay bare so scripts read like the harness's. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function shellWords(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
