// The schemas of a run's state files, built the first time one is needed rather than when this
// module loads. Reading a state file that passed its check when it was written needs none
// (checkMemo.ts), so `chainlens status` on a run ChainLens wrote never loads zod, whose start and
// schema building were over a third of that command's own time (docs/reference/cli.md,
// "Start-up"). Everything else in the state files' path imports only their types.
import type * as z from 'zod';
import type { Chain } from '../../protocol/chain';
import type { RunState } from '../../protocol/run';
import type { SweciRecord } from '../../protocol/sweci';

/** What each kind of checked state file holds. */
export interface StateContents {
  run: RunState;
  chain: Chain;
  recorded: Record<string, string | null>;
}

export type StateSchemas = { readonly [K in keyof StateContents]: z.ZodType<StateContents[K]> };

let loaded: StateSchemas | undefined;
let sweci: z.ZodType<SweciRecord> | undefined;
let jitless = false;

/**
 * Builds the schemas without zod's generated parsers (zod's `jitless`: zod then validates by its
 * generic path, without making a parser per object schema with `new Function`), for a process
 * that checks a file or two and exits (statusBin.ts): generating them costs more than those few
 * checks gain. Same checks, same issues (test/unit/cli/zodJitless.test.ts compares them). Takes
 * effect if called before the first schema is built, as zod reads it when a schema is made.
 */
export function preferJitlessSchemas(): void {
  jitless = true;
}

// Plain requires, in functions, so that a bundle evaluates these modules (and zod) only when they
// are called; an import would evaluate them when this module loads.
/* eslint-disable @typescript-eslint/no-require-imports */

function zodConfigured(): void {
  if (jitless) require('./zodJitless');
}

/** The state files' schemas (built on the first call). */
export function stateSchemas(): StateSchemas {
  if (loaded) return loaded;
  zodConfigured();
  const { RunStateSchema, RecordedPatchesSchema } =
    require('../../protocol/run') as typeof import('../../protocol/run');
  const { ChainSchema } = require('../../protocol/chain') as typeof import('../../protocol/chain');
  loaded = { run: RunStateSchema, chain: ChainSchema, recorded: RecordedPatchesSchema };
  return loaded;
}

/** A SWE-CI run's record schema (infra/sweci/sweciStore.ts), built on the first call likewise. */
export function sweciRecordSchema(): z.ZodType<SweciRecord> {
  if (sweci) return sweci;
  zodConfigured();
  sweci = (require('../../protocol/sweci') as typeof import('../../protocol/sweci')).SweciRecordSchema;
  return sweci;
}
/* eslint-enable @typescript-eslint/no-require-imports */
