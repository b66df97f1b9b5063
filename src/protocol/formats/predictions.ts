import * as z from 'zod';

/** One SWE-bench prediction. `model_patch` null or '' means the agent produced no patch. */
export const PredictionRecordSchema = z.looseObject({
  instance_id: z.string().min(1),
  model_name_or_path: z.string().nullable().optional(),
  model_patch: z.string().nullable(),
});
