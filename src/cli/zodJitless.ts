// Imported first by statusBin.ts, before any schema is built (zod reads this setting when a schema
// is made): zod then validates without generating a parser per object schema with `new Function`.
// Those generated parsers pay off over many parses; `chainlens status` parses two files once, and
// compiling them was a sixth of zod's part of its start. Same checks, same issues (zod's generic
// path; test/unit/cli/zodJitless.test.ts compares them).
import * as z from 'zod';

z.config({ jitless: true });
