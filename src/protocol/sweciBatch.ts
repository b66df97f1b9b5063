import * as z from 'zod';
import { SweciPoliciesSchema } from './sweci';

/** One agent of a SWE-CI batch: its two roles as shell commands (docs/sweci.md, "A whole dataset"). */
export const SweciBatchAgentSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'an agent name (letters, digits, . _ -)'),
  architect: z.string().min(1),
  programmer: z.string().min(1),
});
export type SweciBatchAgent = z.infer<typeof SweciBatchAgentSchema>;

/** `<run-dir>/sweci-batch.json`: what a SWE-CI batch evaluates, fixed when it is made. */
export const SweciBatchManifestSchema = z.object({
  schema: z.literal(1),
  kind: z.literal('swe-ci'),
  datasetDir: z.string(),
  split: z.string(),
  /** The split's tasks in the metadata's order. */
  tasks: z.array(z.string()).min(1),
  agents: z.array(SweciBatchAgentSchema).min(1),
  limit: z.number().int().positive(),
  /** Per test run and per role call (SWE-CI: 3600 s each). */
  timeoutS: z.number().positive(),
  roleTimeoutS: z.number().positive(),
  policies: SweciPoliciesSchema,
  createdAt: z.string(),
});
export type SweciBatchManifest = z.infer<typeof SweciBatchManifestSchema>;
