// The real sample files (SWE-bench instances, SWE-agent / mini-swe-agent runs) vendored under
// test/fixtures/formats, so tests read them wherever the repository is cloned.
import { join, resolve } from 'node:path';

export const FORMATS = resolve(__dirname, '../fixtures/formats');
export const formatFile = (name: string): string => join(FORMATS, name);
