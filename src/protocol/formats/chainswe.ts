import * as z from 'zod';
import { RepoNameSchema } from './repoName';
import { TestListSchema } from './testList';

/** One `bug_fixes[]` entry of a ChainSWE chain: a SWE-bench-style instance with its position. */
export const ChainSweBugFixSchema = z.looseObject({
  order: z.number().int().positive(),
  swebench_instance_id: z.string().min(1),
  commit_hash: z.string().optional(),
  problem_statement: z.string(),
  date: z.string().optional(),
  source: z.string().optional(),
  patch: z.string(),
  test_patch: z.string(),
  FAIL_TO_PASS: TestListSchema,
  PASS_TO_PASS: TestListSchema,
  test_cmds: z.string().nullable().optional(),
});

/** A ChainSWE chain (one JSON object; the dataset is JSONL with one chain per line). */
export const ChainSweChainSchema = z.looseObject({
  continuous_id: z.string().min(1),
  repo: RepoNameSchema,
  base_commit: z.string().regex(/^[0-9a-f]{7,40}$/i, 'expected a commit hash'),
  source: z.string().optional(),
  date_range: z.unknown().optional(),
  docker_image: z.string().min(1).nullable().optional(),
  swebench_instance_ids: z.array(z.string()).optional(),
  bug_fixes: z.array(ChainSweBugFixSchema).min(1),
});
export type ChainSweChain = z.infer<typeof ChainSweChainSchema>;
