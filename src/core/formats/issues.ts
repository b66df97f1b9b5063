import type * as z from 'zod';

/** "$.bug_fixes[1].FAIL_TO_PASS" from a zod issue path (the JSON path people can look up). */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** zod's wording, made plain: a missing field says so instead of "received undefined". */
function plainMessage(message: string): string {
  const missing = /^Invalid input: expected (\w+), received undefined$/.exec(message);
  if (missing) return `missing required field (expected ${missing[1]})`;
  return message.replace(/^Invalid input: /, '');
}

/** One line per problem: "<file[:line]>: <json path>: <message>". */
export function describeIssues(location: string, error: z.ZodError, pathPrefix: readonly PropertyKey[] = []): string[] {
  return error.issues.map(
    (issue) => `${location}: ${jsonPath([...pathPrefix, ...issue.path])}: ${plainMessage(issue.message)}`,
  );
}
