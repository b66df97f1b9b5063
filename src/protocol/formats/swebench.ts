import * as z from 'zod';
import { RepoNameSchema } from './repoName';
import { TestListSchema } from './testList';

/**
 * A SWE-bench instance (Lite, Verified, Multilingual, Multimodal). Extra fields are kept, not
 * rejected. Newer datasets carry what the harness grades with: `log_parser` (a harness parser
 * name such as `parse_log_gotest`), `eval_type`, and the whole `eval_script`.
 */
export const SweBenchInstanceSchema = z.looseObject({
  repo: RepoNameSchema,
  instance_id: z.string().min(1),
  base_commit: z.string().regex(/^[0-9a-f]{7,40}$/i, 'expected a commit hash'),
  patch: z.string(),
  test_patch: z.string(),
  problem_statement: z.string(),
  hints_text: z.string().nullable().optional(),
  created_at: z.string().optional(),
  version: z.union([z.string(), z.number()]).optional(),
  FAIL_TO_PASS: TestListSchema,
  PASS_TO_PASS: TestListSchema,
  environment_setup_commit: z.string().optional(),
  image: z.string().optional(),
  test_cmds: z.string().nullable().optional(),
  log_parser: z.string().optional(),
  eval_type: z.enum(['pass_and_fail', 'fail_only']).optional(),
  eval_script: z.string().optional(),
});
export type SweBenchInstance = z.infer<typeof SweBenchInstanceSchema>;
