import type { CliCommand } from '../command';
import { ONE_CHAIN_FILE, parseCommandArgs } from '../args';
import { readChainFile } from '../chainInput';
import { isOptionError, UserError } from '../../core/util/errors';
import { parseJsonDocuments } from '../../core/formats/documents';
import { chainFromChainSwe } from '../../core/formats/chainswe';
import { readSweBenchInstances } from '../../core/formats/swebench';
import { readUserFile } from '../../infra/files';
import { resolve } from 'node:path';

const usage = `usage: chainlens validate <chain-file> [--chain-id <id>] [--instances <id,id,...>]

Checks a ChainSWE chain (.json, or a .jsonl dataset) or SWE-bench instances (.json list, .jsonl).
Exit 0 when valid; exit 1 with one line per problem (file, line for JSONL, JSON path).
A .jsonl dataset is checked chain by chain unless --chain-id picks one.`;

export const validateCommand: CliCommand = {
  name: 'validate',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      { 'chain-id': { type: 'string' }, instances: { type: 'string' } },
      usage,
      ONE_CHAIN_FILE,
    );
    try {
      const { chain, path } = readChainFile(io.cwd, positionals[0], {
        chainId: values['chain-id'],
        instances: values.instances,
      });
      io.out(
        `${path}: valid ${chain.format} chain '${chain.id}' (${chain.repo} @ ${chain.baseCommit.slice(0, 12)}, ${chain.steps.length} step${chain.steps.length === 1 ? '' : 's'})`,
      );
      return 0;
    } catch (e) {
      // A dataset of several chains with no --chain-id: validate each chain.
      if (isOptionError(e) && e.option === 'chainId' && values['chain-id'] === undefined)
        return validateDataset(positionals[0], io);
      if (isOptionError(e) && e.option === 'instances' && !values.instances)
        return validateInstanceFile(positionals[0], io);
      // Problems in the file are validate's output; a file that cannot be read is an error (stderr).
      if (e instanceof UserError && e.kind === 'input' && e.details.length) {
        io.out(e.details.join('\n'));
        return 1;
      }
      throw e;
    }
  },
};

async function validateDataset(file: string, io: Parameters<CliCommand['run']>[1]): Promise<number> {
  const path = resolve(io.cwd, file);
  const docs = parseJsonDocuments(path, readUserFile(path, 'chain file'));
  const problems: string[] = [];
  for (const doc of docs) {
    try {
      chainFromChainSwe(path, doc);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(...(e.details.length ? e.details : [e.message]));
    }
  }
  if (problems.length) {
    io.out(problems.join('\n'));
    return 1;
  }
  io.out(`${path}: valid ChainSWE dataset of ${docs.length} chains`);
  return 0;
}

/** A SWE-bench file spanning several repositories is a valid instance file, just not one chain. */
async function validateInstanceFile(file: string, io: Parameters<CliCommand['run']>[1]): Promise<number> {
  const path = resolve(io.cwd, file);
  const instances = readSweBenchInstances(path, parseJsonDocuments(path, readUserFile(path, 'chain file')));
  const byRepo = new Map<string, number>();
  for (const x of instances) byRepo.set(x.instance.repo, (byRepo.get(x.instance.repo) ?? 0) + 1);
  io.out(
    `${path}: valid SWE-bench instances file: ${instances.length} instances of ${byRepo.size} repositories (${[...byRepo].map(([r, n]) => `${r}: ${n}`).join(', ')})`,
  );
  io.out('a chain is one repository: pick its instances in order with --instances <id,id,...>');
  return 0;
}
