import { existsSync, mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { UserError } from '../../core/util/errors';
import { buildBatchReport, drillKeys, reportCsvFiles, reportHtml, reportText } from '../../core/batch';
import { BatchRunDir } from '../../infra/batch/runDir';
import { writeFileAtomic } from '../../infra/files';
import { SweciBatchDir } from '../../infra/sweci/batchDir';
import { printSweciBatchReport } from './sweci/batchReport';
import { positiveNumber } from './sweci/shared';

const usage = `usage: chainlens report <run-dir> [--json] [--csv <dir>] [--html <file>]
       chainlens report <swe-ci-run-dir> [--json] [--gamma <γ>] [--plots <dir>]

The figures of a batch run directory (\`chainlens batch\`), from its records. First ChainSWE's
tables: the records left out of every denominator and why (only failures that are not the
solver's); Table 2 with Seq scored until its first unresolved bug, every step graded beside it,
relative and absolute changes from Oracle, Wilson and repository-bootstrap intervals, McNemar,
cost and peak context per chain; the chain-error share of downstream Seq failures by position
and cause; position tables per chain length; tables by dataset source and repository. Then per
source and mode the resolve rate and full-chain success, the resolve rate by chain position, the
Oracle-to-Seq drop by position, failure fingerprints, chain errors (position 2 or later) traced
to the earlier steps' overshoot/undershoot, and costs when trajectories carry them.
Works on an unfinished batch too (the figures cover what is recorded). --json prints the report
as JSON; --csv writes one CSV per table into <dir>; --html writes a page with the tables and charts.
docs/reference/batch.md documents every column.
On a SWE-CI batch's run directory: EvoScore per agent and per task (as \`chainlens sweci score\`),
the ranking of agents at γ = 0.8 … 1.2, regressions by iteration, cumulative-best bins, average
turns and lines changed against the human's diff; --plots writes them as SVG (docs/sweci.md).`;

export const reportCommand: CliCommand = {
  name: 'report',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        json: { type: 'boolean' },
        csv: { type: 'string' },
        html: { type: 'string' },
        gamma: { type: 'string' },
        plots: { type: 'string' },
      },
      usage,
      { min: 1, max: 1, missing: 'expected a batch run directory' },
    );
    const root = resolve(io.cwd, positionals[0]);
    if (SweciBatchDir.isOne(root)) {
      if (values.csv !== undefined || values.html !== undefined)
        throw new UserError('--csv and --html are for chain batches; a SWE-CI batch has --json and --plots', 'usage');
      const gamma = positiveNumber(values.gamma, '--gamma') ?? 1;
      return printSweciBatchReport(io, root, { json: values.json ?? false, gamma, plots: values.plots });
    }
    if (values.gamma !== undefined || values.plots !== undefined)
      throw new UserError('--gamma and --plots are for SWE-CI batch run directories', 'usage');
    const dir = new BatchRunDir(root);
    const manifest = dir.readManifest();
    const records = dir.readRecords();
    const report = buildBatchReport(manifest, records, undefined, dir.readEvidence());
    const csvDir = values.csv === undefined ? undefined : resolve(io.cwd, values.csv);
    const html = values.html === undefined ? undefined : resolve(io.cwd, values.html);
    if (csvDir && existsSync(csvDir) && !statSync(csvDir).isDirectory())
      throw new UserError(`--csv ${csvDir} is a file; name a directory`, 'usage');
    if (html && (!existsSync(dirname(html)) || (existsSync(html) && statSync(html).isDirectory())))
      throw new UserError(`--html ${html}: name a file in an existing directory`, 'usage');
    io.out(values.json ? JSON.stringify({ ...report, drill: drillKeys(report) }, null, 2) : reportText(report));
    if (csvDir) {
      mkdirSync(csvDir, { recursive: true });
      for (const [name, text] of Object.entries(reportCsvFiles(report, records)))
        writeFileAtomic(join(csvDir, name), text);
      io.err(`CSV tables written to ${csvDir}`);
    }
    if (html) {
      writeFileAtomic(html, reportHtml(report, `ChainLens batch ${basename(dir.root)}`));
      io.err(`HTML report written to ${html}`);
    }
    return 0;
  },
};
