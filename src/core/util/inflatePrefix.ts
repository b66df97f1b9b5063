// The first bytes of a zlib stream (RFC 1950 around RFC 1951's deflate), in plain JS. `chainlens
// status` reads one line of HEAD's commit object (its tree) on every call; loading node:zlib, and
// the stream modules it brings, for those 46 bytes cost more than decoding them here
// (docs/reference/cli.md, "Start-up"). Anything this decoder does not take (a preset dictionary, a
// malformed or truncated stream) returns null, and the caller asks node:zlib: this is a fast path
// with zlib as its fallback, never a second opinion.

const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order in which a dynamic block lists the code lengths of its code-length code. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
const MAX_BITS = 15;

/** A canonical Huffman code: how many codes of each length, and the symbols in code order. */
interface Huffman {
  count: Uint16Array;
  symbol: Uint16Array;
}

class Truncated extends Error {}

function huffman(lengths: ArrayLike<number>): Huffman | null {
  const count = new Uint16Array(MAX_BITS + 1);
  for (let s = 0; s < lengths.length; s++) count[lengths[s]]++;
  let left = 1;
  for (let len = 1; len <= MAX_BITS; len++) {
    left = (left << 1) - count[len];
    if (left < 0) return null; // over-subscribed: not a code
  }
  const offsets = new Uint16Array(MAX_BITS + 2);
  for (let len = 1; len <= MAX_BITS; len++) offsets[len + 1] = offsets[len] + count[len];
  const symbol = new Uint16Array(lengths.length);
  for (let s = 0; s < lengths.length; s++) if (lengths[s] !== 0) symbol[offsets[lengths[s]]++] = s;
  return { count, symbol };
}

const FIXED_LITERALS = huffman(Array.from({ length: 288 }, (_, s) => (s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8)))!;
const FIXED_DISTANCES = huffman(new Array<number>(30).fill(5))!;

class Bits {
  private at = 2; // past the zlib header
  private buffer = 0;
  private held = 0;
  constructor(private readonly input: Uint8Array) {}

  take(n: number): number {
    while (this.held < n) {
      if (this.at >= this.input.length) throw new Truncated();
      this.buffer |= this.input[this.at++] << this.held;
      this.held += 8;
    }
    const value = this.buffer & ((1 << n) - 1);
    this.buffer >>>= n;
    this.held -= n;
    return value;
  }

  /** To the next byte boundary (a stored block starts there); whole bytes taken ahead are given back. */
  align(): void {
    this.at -= this.held >> 3;
    this.buffer = 0;
    this.held = 0;
  }

  byte(): number {
    if (this.at >= this.input.length) throw new Truncated();
    return this.input[this.at++];
  }

  /** One symbol, read a bit at a time, most significant bit of the code first (RFC 1951 3.1.1). */
  decode(h: Huffman): number {
    let code = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len <= MAX_BITS; len++) {
      code |= this.take(1);
      const count = h.count[len];
      if (code - first < count) return h.symbol[index + code - first];
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    throw new Error('no such code');
  }
}

/**
 * At least the first `want` bytes the zlib stream `input` inflates to (all of them when it is
 * shorter), or null when this decoder cannot tell: the caller then uses node:zlib.
 */
export function inflatePrefix(input: Uint8Array, want: number): Uint8Array | null {
  if (input.length < 2 || (input[0] & 0x0f) !== 8 || ((input[0] << 8) | input[1]) % 31 !== 0) return null;
  if (input[1] & 0x20) return null; // a preset dictionary
  const out: number[] = [];
  const bits = new Bits(input);
  try {
    let last = 0;
    while (!last && out.length < want) {
      last = bits.take(1);
      const type = bits.take(2);
      if (type === 0) {
        bits.align();
        const len = bits.byte() | (bits.byte() << 8);
        const nlen = bits.byte() | (bits.byte() << 8);
        if ((len ^ 0xffff) !== nlen) return null;
        for (let i = 0; i < len; i++) out.push(bits.byte());
        continue;
      }
      let literals: Huffman | null = FIXED_LITERALS;
      let distances: Huffman | null = FIXED_DISTANCES;
      if (type === 2) [literals, distances] = dynamicCodes(bits);
      else if (type !== 1) return null;
      if (!literals || !distances) return null;
      for (;;) {
        const symbol = bits.decode(literals);
        if (symbol < 256) out.push(symbol);
        else if (symbol === 256) break;
        else {
          // A length code, its extra bits, then a distance code and its extra bits.
          const l = symbol - 257;
          if (l >= 29) return null;
          const length = LENGTH_BASE[l] + bits.take(LENGTH_EXTRA[l]);
          const d = bits.decode(distances);
          if (d >= 30) return null;
          const distance = DIST_BASE[d] + bits.take(DIST_EXTRA[d]);
          if (distance > out.length) return null;
          for (let i = 0; i < length; i++) out.push(out[out.length - distance]);
        }
        if (out.length >= want) break;
      }
    }
  } catch {
    // Truncated input or a code that is not in the table: zlib is asked instead.
    return null;
  }
  return Uint8Array.from(out);
}

/** A dynamic block's literal/length and distance codes (RFC 1951 3.2.7). */
function dynamicCodes(bits: Bits): [Huffman | null, Huffman | null] {
  const nLiterals = bits.take(5) + 257;
  const nDistances = bits.take(5) + 1;
  const nCodeLengths = bits.take(4) + 4;
  if (nLiterals > 286 || nDistances > 30) return [null, null];
  const codeLengthLengths = new Uint8Array(19);
  for (let i = 0; i < nCodeLengths; i++) codeLengthLengths[CODE_LENGTH_ORDER[i]] = bits.take(3);
  const codeLengths = huffman(codeLengthLengths);
  if (!codeLengths) return [null, null];
  const lengths = new Uint8Array(nLiterals + nDistances);
  for (let i = 0; i < lengths.length;) {
    const symbol = bits.decode(codeLengths);
    if (symbol < 16) {
      lengths[i++] = symbol;
      continue;
    }
    let repeat: number;
    let value = 0;
    if (symbol === 16) {
      if (i === 0) return [null, null];
      value = lengths[i - 1];
      repeat = 3 + bits.take(2);
    } else if (symbol === 17) repeat = 3 + bits.take(3);
    else repeat = 11 + bits.take(7);
    if (i + repeat > lengths.length) return [null, null];
    lengths.fill(value, i, i + repeat);
    i += repeat;
  }
  if (lengths[256] === 0) return [null, null]; // no end-of-block code
  return [huffman(lengths.subarray(0, nLiterals)), huffman(lengths.subarray(nLiterals))];
}
