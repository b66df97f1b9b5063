import * as z from 'zod';

// Its own module so a schema that names symbol kinds (a CodeThread task's symbols) does not build
// the whole analysis schema with it: `chainlens status` loads the chain schema on every call
// (docs/reference/cli.md, "Start-up").
export const SymbolKindSchema = z.enum(['function', 'method', 'class', 'type', 'module']);
export type SymbolKind = z.infer<typeof SymbolKindSchema>;
