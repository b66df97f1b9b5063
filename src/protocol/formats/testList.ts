import * as z from 'zod';
import { parsePythonStringList } from './pythonList';

/**
 * FAIL_TO_PASS / PASS_TO_PASS: a JSON array, or (as Hugging Face stores them) a string holding a
 * JSON-encoded array, or (as SWE-bench Pro stores them) a Python list literal of strings. All
 * become string[]; anything else is an issue at the field's own path.
 */
export const TestListSchema = z.unknown().transform((value, ctx): string[] => {
  if (value === undefined) {
    ctx.addIssue({ code: 'custom', message: 'missing required field (expected an array of test ids)' });
    return z.NEVER;
  }
  let list: unknown = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      list = parsePythonStringList(value) ?? undefined;
    }
  }
  if (Array.isArray(list)) {
    const bad = list.findIndex((x) => typeof x !== 'string');
    if (bad === -1) return list as string[];
    ctx.addIssue({ code: 'custom', message: `item ${bad} is ${typeof list[bad]}, expected a test id string` });
    return z.NEVER;
  }
  ctx.addIssue({
    code: 'custom',
    message: `expected an array of test ids or a JSON-encoded (or Python) list of strings, got ${typeof value === 'string' ? 'a string that is not one' : typeof value}`,
  });
  return z.NEVER;
});
