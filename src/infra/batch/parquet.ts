import type { JsonDocument } from '../../core/formats/documents';
import { UserError } from '../../core/util/errors';

/** A Parquet value as JSON would hold it: int64 columns come back as BigInt, binary as bytes. */
function jsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(jsonValue);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonValue(x)]));
  return v;
}

/**
 * Nested fields some exports store as JSON text (a ChainSWE chain's `bug_fixes`), decoded; text
 * that is not JSON is left for the chain loader to report.
 */
function nestedJson(row: unknown): unknown {
  if (!row || typeof row !== 'object') return row;
  const r = row as Record<string, unknown>;
  if (typeof r.bug_fixes !== 'string') return row;
  try {
    return { ...r, bug_fixes: JSON.parse(r.bug_fixes) as unknown };
  } catch {
    return row;
  }
}

/**
 * The rows of a local Parquet file (as Hugging Face publishes ChainSWE, SWE-bench and CodeThread)
 * as JSON documents, row n standing where line n of the JSONL would: the chain loaders and their
 * messages ("file.parquet:3: $.bug_fixes[0].patch: ...") work on them unchanged. Read with
 * hyparquet, a pure-JS reader (no native build), with its codecs for ZSTD, GZIP, Brotli and LZ4.
 */
export async function readParquetDocuments(path: string): Promise<JsonDocument[]> {
  const { asyncBufferFromFile, parquetReadObjects } = await import('hyparquet');
  const { compressors } = await import('hyparquet-compressors');
  let rows: Record<string, unknown>[];
  try {
    const file = await asyncBufferFromFile(path);
    rows = await parquetReadObjects({ file, compressors });
  } catch (e) {
    throw new UserError(`${path} is not a readable Parquet file (${(e as Error).message})`, 'input');
  }
  if (rows.length === 0) throw new UserError(`${path} holds no rows`, 'input');
  return rows.map((row, i) => ({ value: nestedJson(jsonValue(row)), line: i + 1 }));
}
