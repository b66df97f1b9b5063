import * as z from 'zod';
import { RepoNameSchema } from './repoName';
import { TestListSchema } from './testList';

/**
 * A SWE-bench Pro instance as ScaleAI/SWE-bench_Pro publishes it (and as its harness,
 * swe_bench_pro_eval.py, reads it): lower-case `fail_to_pass` / `pass_to_pass` (Python list
 * literals), the tests its per-instance run script gets (`selected_test_files_to_run`), the
 * commands that set the repository up (`before_repo_set_cmd`), the image tag (`dockerhub_tag`),
 * and `requirements` / `interface`, which its problem statement template appends.
 */
export const SweBenchProInstanceSchema = z.looseObject({
  repo: RepoNameSchema,
  instance_id: z.string().min(1),
  base_commit: z.string().regex(/^[0-9a-f]{7,40}$/i, 'expected a commit hash'),
  patch: z.string(),
  test_patch: z.string(),
  problem_statement: z.string(),
  requirements: z.string().nullable().optional(),
  interface: z.string().nullable().optional(),
  fail_to_pass: TestListSchema,
  pass_to_pass: TestListSchema,
  selected_test_files_to_run: TestListSchema.optional(),
  before_repo_set_cmd: z.string().nullable().optional(),
  dockerhub_tag: z.string().min(1).optional(),
  repo_language: z.string().optional(),
  image: z.string().optional(),
  /** ChainLens's own additions, as for SWE-bench instances: the command and parser to grade with. */
  test_cmds: z.string().nullable().optional(),
  log_parser: z.string().optional(),
});
export type SweBenchProInstance = z.infer<typeof SweBenchProInstanceSchema>;

/** Docker Hub repository the Pro images are published in (the harness's --dockerhub_username jefzda). */
export const SWE_BENCH_PRO_IMAGE_REPOSITORY = 'jefzda/sweap-images';
