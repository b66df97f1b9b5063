// Evaluated (by stateSchemas.ts, when asked to) before any schema is built, as zod reads this
// setting when a schema is made: zod then validates by its generic path, without generating a
// parser per object schema with `new Function`. An import of zod here, not a require: a bundle
// then takes zod's ES module build, whose unused parts it leaves out, as for every other import.
import * as z from 'zod';

z.config({ jitless: true });
