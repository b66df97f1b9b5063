const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isWhitespace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

function isNumberByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2e || b === 0x2b || b === 0x65 || b === 0x45;
}

/**
 * Finds the top-level `"id"` of a JSON-RPC message too large to be read whole, by scanning its
 * bytes as they stream past (a few bytes of state, nothing buffered), so the refusal of an
 * oversized request answers it by its id and the client's call fails at once instead of waiting
 * forever. Works on bytes: JSON's structural characters are ASCII, which never occur inside a
 * multi-byte UTF-8 character. Only an id at depth 1 counts (`params` may hold ids of their own).
 */
export class TopLevelIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1, between `{` or `,` and the next key. */
  private expectKey = false;
  /** The bytes of the depth-1 key being read (only the first few: we look for "id"). */
  private key: number[] | null = null;
  private lastKey = '';
  private awaitingValue = false;
  /** The bytes of the id's value as they come. */
  private value: number[] | null = null;
  private done = false;
  /** The id, once found: a string or number (JSON-RPC's request ids); null until then or if none. */
  id: string | number | null = null;

  push(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length && !this.done; i++) {
      if (this.value) this.valueByte(chunk[i]);
      else this.structureByte(chunk[i]);
    }
  }

  private structureByte(b: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.key) this.lastKey = String.fromCharCode(...this.key);
        this.key = null;
        return;
      }
      if (this.key && this.key.length < 3) this.key.push(b);
      return;
    }
    if (isWhitespace(b)) return;
    if (this.awaitingValue) {
      this.awaitingValue = false;
      if (b === QUOTE || isNumberByte(b)) {
        this.value = [b];
        return;
      }
      this.done = true; // an id that is not a string or number (null, an object): none to answer to
      return;
    }
    switch (b) {
      case QUOTE:
        this.inString = true;
        this.key = this.depth === 1 && this.expectKey ? [] : null;
        this.expectKey = false;
        return;
      case 0x7b: // {
        this.depth++;
        this.expectKey = this.depth === 1;
        return;
      case 0x5b: // [
        this.depth++;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.depth--;
        return;
      case 0x2c: // ,
        if (this.depth === 1) this.expectKey = true;
        return;
      case 0x3a: // :
        if (this.depth === 1) this.awaitingValue = this.lastKey === 'id';
        this.lastKey = '';
        return;
    }
  }

  private valueByte(b: number): void {
    const v = this.value!;
    if (v.length > 512) {
      this.done = true;
      return;
    }
    if (v[0] === QUOTE) {
      v.push(b);
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) this.finish(v);
      return;
    }
    if (isNumberByte(b)) v.push(b);
    else this.finish(v);
  }

  private finish(bytes: number[]): void {
    this.done = true;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
      if (typeof parsed === 'string' || typeof parsed === 'number') this.id = parsed;
    } catch {
      // not an id that can be answered to
    }
  }
}
