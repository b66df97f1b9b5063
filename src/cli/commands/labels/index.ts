import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { CliCommand, CliIO } from '../../command';
import { parseCommandArgs } from '../../args';
import { commandGroup } from '../../commandGroup';
import { UserError } from '../../../core/util/errors';
import { agreement } from '../../../core/labels/agreement';
import { formatAgreement } from '../../../core/labels/format';
import { LabelFileReader } from '../../../core/labels/parse';
import type { DriftLabelRecord } from '../../../protocol/labels';

const usage = `usage: chainlens labels agree <a.jsonl> <b.jsonl> [--json]

Agreement between two drift labellers (or a labeller and ChainLens's suggestions): Cohen's kappa
over the targets both labelled (same instance, file and symbol; else overlapping line range),
the number of such targets, and the confusion table of the ten labels.
  --json   print { kappa, observed, expected, n, onlyA, onlyB, groupKappa, confusion, pairs }`;

const options = { json: { type: 'boolean', default: false } } as const;

/** Streams a JSONL labels file line by line; every bad line is reported with its field. */
async function readLabels(path: string): Promise<DriftLabelRecord[]> {
  const reader = new LabelFileReader(path);
  const stream = createReadStream(path, { encoding: 'utf8' });
  const opened = new Promise<void>((res, rej) => {
    stream.once('open', () => res());
    stream.once('error', rej);
  });
  try {
    await opened;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(
      `${path}: cannot read the file (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message})`,
    );
  }
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) reader.push(line);
  return reader.finish();
}

const agreeCommand: CliCommand = {
  name: 'labels agree',
  usage,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, options, usage, {
      min: 2,
      max: 2,
      missing: 'labels agree takes exactly two label files',
    });
    const [a, b] = positionals;
    const pathA = resolve(io.cwd, a);
    const pathB = resolve(io.cwd, b);
    const [ra, rb] = await Promise.all([readLabels(pathA), readLabels(pathB)]);
    const result = agreement(ra, rb);
    if (values.json) {
      const { kappa, observed, expected, n, onlyA, onlyB, groupKappa, confusion, pairs } = result;
      io.out(JSON.stringify({ kappa, observed, expected, n, onlyA, onlyB, groupKappa, confusion, pairs }, null, 2));
    } else {
      io.out(formatAgreement(result, a, b));
    }
    return 0;
  },
};

export const labelsCommand = commandGroup('labels', 'Drift labels (docs/reference/drift.md).', [
  {
    name: 'agree',
    summary: "agreement of two label files: Cohen's kappa over the targets both labelled, the confusion table",
    load: async () => agreeCommand,
  },
]);
