import { resolve } from 'node:path';
import type { CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { gatherEvidence } from '../../app/batch/chainErrorEvidence';
import { parseEngine } from '../../app/batch/engine';

const usage = `usage: chainlens evidence <run-dir> [--engine local|swarm]

Tests each chain error of a batch run directory (\`chainlens batch\`): gold patch k graded on the
Seq start state of step k (one container). Gold fails there: the inherited state is poisoned,
and then each earlier step's patch is replaced by its gold patch, one at a time, and a culprit
step's hunks are left out or added one at a time, to name the step and the hunks (overshoot: an
edit gold does not make; undershoot: gold's edit left out) that let gold k pass. Gold passes:
the state was solvable. Each result is written to <run-dir>/evidence/ as soon as it is done;
run again, it tests only the chain errors without evidence. \`chainlens report\` shows it.
docs/reference/metrics.md ("Chain-error evidence") says what each verdict means.`;

export const evidenceCommand: CliCommand = {
  name: 'evidence',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { engine: { type: 'string' } }, usage, {
      min: 1,
      max: 1,
      missing: 'expected a batch run directory',
    });
    const abort = new AbortController();
    const onSigint = () => abort.abort();
    process.once('SIGINT', onSigint);
    try {
      const all = await gatherEvidence({
        runDir: resolve(io.cwd, positionals[0]),
        signal: abort.signal,
        engine: parseEngine(values.engine),
        onNote: (line) => io.err(line),
      });
      io.out(`${all.length} chain error(s) with evidence: chainlens report ${positionals[0]} shows it`);
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
    return abort.signal.aborted ? 130 : 0;
  },
};
