import { resolve } from 'node:path';
import type { CliCommand, CliIO } from '../../command';
import { parseCommandArgs } from '../../args';
import { commandGroup } from '../../commandGroup';
import { agreement } from '../../../core/labels/agreement';
import { checkAgreementSides, describePairing } from '../../../core/labels/agreementSides';
import { formatAgreement } from '../../../core/labels/format';
import { readLabelFile } from '../../../infra/labels/labelFile';

const usage = `usage: chainlens labels agree <a.jsonl> <b.jsonl> [--labeller-a <name>] [--labeller-b <name>] [--json]

Agreement between two drift labellers (or a labeller and ChainLens's suggestions): Cohen's kappa
over the targets both labelled (same run, step, file and symbol; else overlapping line range),
the number of such targets, and the confusion table of the ten labels. Each side is one
labeller: a file holding several (a run's shared labels file) needs --labeller-a/-b to pick one;
the same file may be given twice with two labellers.
  --labeller-a  the labeller of <a.jsonl> to compare
  --labeller-b  the labeller of <b.jsonl> to compare
  --json        print { kappa, observed, expected, n, onlyA, onlyB, groupKappa, confusion, pairs, paired }`;

const options = {
  json: { type: 'boolean', default: false },
  'labeller-a': { type: 'string' },
  'labeller-b': { type: 'string' },
} as const;

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
    const [ra, rb] = await Promise.all([readLabelFile(pathA, { shownAs: a }), readLabelFile(pathB, { shownAs: b })]);
    const [sa, sb] = checkAgreementSides(
      { name: a, records: ra, labeller: values['labeller-a'] },
      { name: b, records: rb, labeller: values['labeller-b'] },
      { a: '--labeller-a', b: '--labeller-b' },
    );
    const result = agreement(sa.records, sb.records);
    const paired = describePairing(sa, sb);
    if (values.json) {
      const { kappa, observed, expected, n, onlyA, onlyB, groupKappa, confusion, pairs } = result;
      io.out(
        JSON.stringify({ kappa, observed, expected, n, onlyA, onlyB, groupKappa, confusion, pairs, paired }, null, 2),
      );
    } else {
      // A shared file given twice: name each side by its labeller too.
      const shown = (file: string, picked: string | undefined) => (picked ? `${file} (${picked})` : file);
      io.out(`${formatAgreement(result, shown(a, values['labeller-a']), shown(b, values['labeller-b']))}\n\n${paired}`);
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
