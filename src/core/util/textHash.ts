/**
 * A 64-bit hash of a text, as 16 hex digits, for telling whether a file is still the one written
 * (infra/run/checkMemo.ts): not a cryptographic hash, only one that no accidental change
 * escapes. Two lanes; each step of a lane is a bijection of its state for a given character, and
 * different characters lead a state to different states, so two texts of the same length that
 * differ in a single character always differ in both lanes. The length is mixed in as well.
 * Plain arithmetic, so that the few kilobytes of a state file hash in less time than loading
 * node:crypto takes.
 */
export function textHash(text: string): string {
  let a = 0x9e3779b9 ^ text.length;
  let b = 0x85ebca6b ^ Math.imul(text.length, 0x27d4eb2f);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    a ^= a >>> 15;
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  // finish() is a bijection too: lanes that differ give halves that differ.
  return hex32(finish(a)) + hex32(finish(b));
}

/** MurmurHash3's final mix (a bijection of 32 bits): every input bit reaches every output bit. */
function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const hex32 = (n: number): string => n.toString(16).padStart(8, '0');
