import * as z from 'zod';

/**
 * A repository as SWE-bench names it, `owner/name` (GitHub's characters: letters, digits, `-`, `_`,
 * `.`). It picks the log parser and test command, and is printed: nothing else gets through.
 */
export const RepoNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'expected owner/name (letters, digits, -, _ and .)')
  .refine((s) => !s.split('/').some((part) => part === '.' || part === '..'), 'expected owner/name, not a path');
