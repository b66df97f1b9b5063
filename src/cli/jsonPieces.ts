/**
 * JSON.stringify(value, null, 2) in pieces, for output too big for one string: V8 caps a string
 * at about 512 MiB, and `chainlens trajectory --json` of a 100 MB output.jsonl (every step with
 * its patch so far) is bigger. Containers are opened down to `depth` levels and what lies below
 * is given to JSON.stringify whole, then indented to where it sits: JSON text holds no raw
 * newline inside a string, so every newline in it is a line break of the layout.
 */
export function* jsonPieces(value: unknown, depth = 4): Generator<string> {
  yield* pieces(value, '', depth);
}

const INDENT = '  ';

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function dropped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function* pieces(value: unknown, pad: string, depth: number): Generator<string> {
  if (
    depth === 0 ||
    value === null ||
    typeof value !== 'object' ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    const text = JSON.stringify(value, null, 2);
    yield pad && text.includes('\n') ? text.replace(/\n/g, '\n' + pad) : text;
    return;
  }
  const inner = pad + INDENT;
  if (Array.isArray(value)) {
    if (value.length === 0) return yield '[]';
    for (let i = 0; i < value.length; i++) {
      yield (i === 0 ? '[\n' : ',\n') + inner;
      const item: unknown = value[i];
      if (dropped(item)) yield 'null';
      else yield* pieces(item, inner, depth - 1);
    }
    return yield '\n' + pad + ']';
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (dropped(member)) continue;
    yield (first ? '{\n' : ',\n') + inner + JSON.stringify(key) + ': ';
    first = false;
    yield* pieces(member, inner, depth - 1);
  }
  yield first ? '{}' : '\n' + pad + '}';
}
