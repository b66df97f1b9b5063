// Where the analysis worker's code is: the bundle beside this code (dist/analysis-worker.js, for
// the extension and the CLI alike), or its TypeScript source under tsx (tests, bench from source).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The bundled worker beside this code (dist/), or the TypeScript source when running under tsx. */
export function startAnalysisWorker(script: string | undefined, options: WorkerOptions = {}): Worker | string {
  if (script) return existsSync(script) ? new Worker(script, options) : `${script} is missing`;
  const bundled = join(__dirname, 'analysis-worker.js');
  if (existsSync(bundled)) return new Worker(bundled, options);
  const source = join(__dirname, 'analysisWorker.ts');
  if (!existsSync(source)) return `${bundled} is missing`;
  let register: string;
  try {
    // assembled so bundlers leave it alone: only meaningful when running from source
    register = require.resolve(['tsx', 'cjs', 'api'].join('/'));
  } catch {
    return 'no analysis worker bundle, and tsx is not there to run its source';
  }
  return new Worker(`require(${JSON.stringify(register)}).register(); require(${JSON.stringify(source)});`, {
    ...options,
    eval: true,
  });
}
