import type { SourcePosition, TrajectoryProblem } from '../../protocol/trajectory';
import { formatJsonPath, type JsonPathKey } from './json/jsonSplitter';

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/**
 * Reads fields of a parsed source document without trusting its shape: a value of the wrong type
 * becomes a problem naming the file and JSON path (plus the JSONL line when there is one) and the
 * adapter carries on with what it has.
 */
export class SourceReader {
  constructor(
    readonly file: string,
    readonly problems: TrajectoryProblem[],
    /** Line/byte offset of the JSONL line this document came from. */
    readonly at: Pick<SourcePosition, 'line' | 'byteOffset'> = {},
  ) {
    const keys = Object.keys(at);
    this.lineAndByte = keys.length === 2 && keys[0] === 'line' && keys[1] === 'byteOffset';
  }

  /** `at` is a JSONL line's {line, byteOffset}: positions are built without spreading it. */
  private readonly lineAndByte: boolean;

  position(path: readonly JsonPathKey[]): SourcePosition {
    const jsonPath = formatJsonPath(path);
    // a literal of one shape: every step of a 100 MB output.jsonl gets one
    return this.lineAndByte
      ? { line: this.at.line, byteOffset: this.at.byteOffset, jsonPath }
      : { ...this.at, jsonPath };
  }

  report(severity: 'error' | 'warning', message: string, path: readonly JsonPathKey[]): void {
    this.problems.push({ severity, file: this.file, message, ...this.position(path) });
  }

  /** A string field; wrong types are reported (numbers are accepted as their text). */
  /**
   * A patch (a submission): text or nothing. Unlike string(), a number is not taken as its text:
   * `"submission": 42` is not a patch, and a trajectory holding only that has nothing to show.
   */
  patch(record: JsonRecord, key: string, path: readonly JsonPathKey[]): string | null {
    const value = record[key];
    if (typeof value === 'string') return value;
    if (value !== undefined && value !== null)
      this.report('error', `"${key}" should be a patch (a string) or null, found ${typeName(value)}`, [...path, key]);
    return null;
  }

  string(
    record: JsonRecord,
    key: string,
    path: readonly JsonPathKey[],
    options: { required?: boolean } = {},
  ): string | undefined {
    const value = record[key];
    if (typeof value === 'string') return value;
    if (value === undefined || value === null) {
      if (options.required) this.report('error', `missing "${key}"`, [...path, key]);
      return undefined;
    }
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    this.report('warning', `expected a string, found ${typeName(value)}`, [...path, key]);
    return undefined;
  }

  number(record: JsonRecord, key: string, path: readonly JsonPathKey[]): number | undefined {
    const value = record[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
    if (value !== undefined && value !== null)
      this.report('warning', `expected a number, found ${typeName(value)}`, [...path, key]);
    return undefined;
  }

  array(
    record: JsonRecord,
    key: string,
    path: readonly JsonPathKey[],
    options: { required?: boolean } = {},
  ): unknown[] | undefined {
    const value = record[key];
    if (Array.isArray(value)) return value;
    if (value === undefined || value === null) {
      if (options.required) this.report('error', `missing "${key}" (a list)`, [...path, key]);
      return undefined;
    }
    this.report('error', `expected a list, found ${typeName(value)}`, [...path, key]);
    return undefined;
  }

  record(record: JsonRecord, key: string, path: readonly JsonPathKey[]): JsonRecord | undefined {
    const value = record[key];
    if (isRecord(value)) return value;
    if (value !== undefined && value !== null)
      this.report('warning', `expected an object, found ${typeName(value)}`, [...path, key]);
    return undefined;
  }

  /** An element that must be an object; anything else is reported and skipped. */
  element(value: unknown, path: readonly JsonPathKey[], what: string): JsonRecord | undefined {
    if (isRecord(value)) return value;
    this.report('error', `${what} should be an object, found ${typeName(value)}; skipped`, path);
    return undefined;
  }
}
