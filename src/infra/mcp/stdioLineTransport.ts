// MCP's stdio transport (one JSON-RPC message per line), written for ChainLens instead of the
// SDK's: the SDK's stdio reader throws on a message over its buffer size and closes the server
// (the agent's session ends with exit 0 and no word), and drops malformed lines, batches and
// messages without "jsonrpc" without an answer. Here every bad message gets the JSON-RPC error
// it deserves and the server stays up (docs/reference/mcp.md).
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TopLevelIdScanner } from './topLevelId';

/** The largest message read (4 MiB): ChainLens's tools take a step number and a short summary. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

type Id = string | number | null;

function idOf(value: Record<string, unknown>): Id {
  return typeof value.id === 'string' || typeof value.id === 'number' ? value.id : null;
}

/**
 * Why a parsed line is not a JSON-RPC 2.0 message MCP accepts, or null. Batches were removed from
 * MCP (2025-06-18), so an array is refused as a whole.
 */
function invalidReason(value: unknown): string | null {
  if (Array.isArray(value)) return 'batches are not supported: send one JSON-RPC message per line';
  if (typeof value !== 'object' || value === null) return 'a JSON-RPC message is a JSON object';
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return 'the "jsonrpc" member must be "2.0"';
  if ('method' in m) {
    if (typeof m.method !== 'string') return 'the "method" member must be a string';
    if ('id' in m && typeof m.id !== 'string' && typeof m.id !== 'number')
      return 'the "id" member must be a string or a number';
    if ('params' in m && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params)))
      return 'the "params" member must be an object';
    return null;
  }
  if ('result' in m || 'error' in m) return null;
  return 'a message needs a "method" (request, notification) or a "result"/"error" (response)';
}

export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the rest of an oversized line is skipped. */
  private oversized: { bytes: number; id: TopLevelIdScanner } | null = null;
  private closed = false;
  private outputBroken = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer) => this.read(chunk);
  private readonly onEnd = () => void this.close();
  private readonly onInputError = (e: Error) => this.onerror?.(e);
  private readonly onOutputError = () => {
    // The client went away: nothing more can be said to it.
    this.outputBroken = true;
  };

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
    this.output.on('error', this.onOutputError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.pending = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.outputBroken) return resolve();
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }

  /** Cuts the input into lines on the newline byte, never holding more than one message's limit. */
  private read(chunk: Buffer): void {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(10, from);
      const end = nl < 0 ? chunk.length : nl;
      const piece = chunk.subarray(from, end);
      if (this.oversized) {
        this.oversized.bytes += piece.length;
        this.oversized.id.push(piece);
      } else if (this.pendingBytes + piece.length > this.maxMessageBytes) {
        const id = new TopLevelIdScanner();
        for (const p of this.pending) id.push(p);
        id.push(piece);
        this.oversized = { bytes: this.pendingBytes + piece.length, id };
        this.pending = [];
        this.pendingBytes = 0;
      } else {
        this.pending.push(Buffer.from(piece));
        this.pendingBytes += piece.length;
      }
      if (nl < 0) break;
      this.endOfLine();
      from = nl + 1;
    }
  }

  private endOfLine(): void {
    if (this.oversized) {
      const { bytes, id } = this.oversized;
      this.oversized = null;
      this.reply(
        id.id,
        INVALID_REQUEST,
        `Invalid Request: the message is ${bytes} bytes, over this server's limit of ${this.maxMessageBytes} bytes`,
      );
      return;
    }
    const line = Buffer.concat(this.pending, this.pendingBytes).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    this.handle(line);
  }

  private handle(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.reply(null, PARSE_ERROR, `Parse error: ${(e as Error).message}`);
      return;
    }
    const id =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? idOf(value as Record<string, unknown>)
        : null;
    const reason = invalidReason(value);
    if (reason) {
      this.reply(id, INVALID_REQUEST, `Invalid Request: ${reason}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.reply(
        id,
        INVALID_REQUEST,
        `Invalid Request: ${issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'not a JSON-RPC message'}`,
      );
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: Id, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
    this.onerror?.(new Error(message));
  }
}
