import { stripBom } from '../util/bom';
import { UserError } from '../util/errors';
import { jsonErrorOffset } from './jsonErrorOffset';

/** A JSON value read from a file, with the 1-based line it started on when the file is JSONL. */
export interface JsonDocument {
  value: unknown;
  /** Set for JSONL records; absent for a whole-file JSON document. */
  line?: number;
}

/** Where a document came from, for messages: "chain.jsonl:3" or "chain.json". */
export function documentLocation(fileName: string, doc: JsonDocument): string {
  return doc.line === undefined ? fileName : `${fileName}:${doc.line}`;
}

function lineColumnAt(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lastBreak = -1;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lastBreak = i;
    }
  }
  return { line, column: position - lastBreak };
}

/** Turns V8's JSON.parse message into "line L, column C: <what>" (it reports a character offset). */
function describeJsonError(text: string, error: unknown, lineOffset = 0): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = /at position (\d+)/.exec(message);
  const offset = at ? Number(at[1]) : jsonErrorOffset(text);
  const where = offset >= 0 ? lineColumnAt(text, offset) : undefined;
  const what =
    offset >= text.length
      ? 'unexpected end of input'
      : message
          .replace(/\s*in JSON at position \d+.*$/, '')
          .replace(/\s*\(line \d+ column \d+\)$/, '')
          .replace(/, ".*" is not valid JSON$/s, '');
  return where ? `line ${where.line + lineOffset}, column ${where.column}: ${what}` : what;
}

/**
 * Reads a `.json` file (one document) or a `.jsonl` file (one document per non-blank line).
 * The extension decides; a `.json` file that is not one document but whose lines each are is
 * read as JSONL too (datasets are often saved so). Syntax errors name file, line and column.
 */
export function parseJsonDocuments(fileName: string, text: string): JsonDocument[] {
  const body = stripBom(text);
  const isJsonl = /\.jsonl$/i.test(fileName);
  if (!isJsonl) {
    try {
      return [{ value: JSON.parse(body) }];
    } catch (e) {
      const lines = body.split('\n').filter((l) => l.trim() !== '');
      if (lines.length < 2 || !lines.every(looksLikeJson)) {
        throw new UserError(`${fileName} is not valid JSON`, 'input', [`${fileName}: ${describeJsonError(body, e)}`]);
      }
    }
  }
  const docs: JsonDocument[] = [];
  const problems: string[] = [];
  body.split('\n').forEach((raw, index) => {
    const lineText = raw.replace(/\r$/, '');
    if (lineText.trim() === '') return;
    try {
      docs.push({ value: JSON.parse(lineText), line: index + 1 });
    } catch (e) {
      problems.push(`${fileName}:${index + 1}: ${describeJsonError(lineText, e).replace(/^line 1, /, '')}`);
    }
  });
  if (problems.length) throw new UserError(`${fileName} has lines that are not valid JSON`, 'input', problems);
  if (docs.length === 0) throw new UserError(`${fileName} is empty`, 'input', [`${fileName}: no JSON records`]);
  return docs;
}

function looksLikeJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
