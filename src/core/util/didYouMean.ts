// "did you mean …?" for a mistyped command, subcommand or flag: the closest known name by edit
// distance, when it is close enough to be a typo rather than another word.

/** Levenshtein distance, an adjacent transposition counting one (Damerau's optimal string alignment). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/**
 * The known name `word` was most likely meant to be, or undefined: within a third of the word's
 * length in edits (at least one), or a name the word is the start of (`--pred` for
 * `--predictions`). Ties go to the earlier name.
 */
function closestName(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const dist = distance(word.toLowerCase(), name.toLowerCase());
    if (dist < bestDistance) {
      best = name;
      bestDistance = dist;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(1, Math.floor(word.length / 3))) return best;
  const prefixed = known.filter((n) => word.length >= 2 && n.startsWith(word));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** " (did you mean X?)", or nothing when no known name is close. */
export function didYouMean(word: string, known: readonly string[], show: (name: string) => string = (n) => n): string {
  const name = closestName(word, known);
  return name === undefined ? '' : ` (did you mean ${show(name)}?)`;
}
