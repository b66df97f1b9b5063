// zod compiles a fast parser for each object schema unless told not to, and first probes whether
// it may (zod/v4/core/util.ts, `allowsEval`): that probe reads the global `navigator`. In VS Code's
// extension host (Node 22), `navigator` is a getter VS Code put there to warn extensions about
// Node 21's new global, and reading it logs "PendingMigrationError: navigator is now a global in
// nodejs" at ChainLens's first parse. jitless skips the probe, and with it the read, and parses
// without generated code (no `new Function` in the extension host either). Imported first by
// extension.ts, before any schema parses.
import * as z from 'zod';

z.config({ jitless: true });
