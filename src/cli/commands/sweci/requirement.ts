import { resolve } from 'node:path';
import type { CliCommand } from '../../command';
import { parseCommandArgs } from '../../args';
import { readRequirement, writeRequirement } from '../../../app/sweci/requirement';
import { readUserFile } from '../../../infra/files';
import { positiveInt } from './shared';

const usage = `usage: chainlens sweci requirement [--dir <workdir>] [--file <requirement.xml>] [--iteration <i>]

Without --file: prints the requirement document of the current iteration (or of --iteration).
With --file: the Architect's requirement for the current iteration is stored with the run,
outside the work tree. It must have SWE-CI's shape (Appendix C): one XML document of 1 to 5
items, each with <location>, <description>, <contract> and <acceptance>; a requirement without
it is refused naming what is missing (a task initialised with --free-requirement takes any text).`;

export const sweciRequirementCommand: CliCommand = {
  name: 'sweci requirement',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(
      argv,
      { dir: { type: 'string' }, file: { type: 'string' }, iteration: { type: 'string' } },
      usage,
    );
    const dir = values.dir ?? io.cwd;
    if (values.file !== undefined) {
      const file = resolve(io.cwd, values.file);
      const text = readUserFile(file, 'requirement file');
      const { iteration, path } = await writeRequirement(dir, text, file);
      io.err(`requirement of iteration ${iteration} stored: ${path}`);
      return 0;
    }
    const got = await readRequirement(dir, positiveInt(values.iteration, '--iteration'));
    if (got.text === null) {
      io.err(`iteration ${got.iteration} has no requirement yet (the Architect writes it: --file)`);
      return 1;
    }
    io.out(got.text.trimEnd());
    return 0;
  },
};
