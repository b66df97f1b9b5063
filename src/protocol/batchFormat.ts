/**
 * The marker a batch run directory's `manifest.json` opens with (docs/reference/batch.md), in a
 * module of its own without zod: git's `add` reads it on every step (infra/git/ownOutputs.ts),
 * and `status` must not load the schemas to do so.
 */
export const BATCH_FORMAT = 'chainlens-batch';
