import type { Chain } from '../../protocol/chain';
import { OptionError, UserError } from '../util/errors';
import { chainFromChainSwe, isChainSweDocument, pickChainSweDocument } from './chainswe';
import { chainFromCodeThread, isCodeThreadDocument } from './codethread';
import { parseJsonDocuments } from './documents';
import { chainFromSweBench } from './swebench';
import { chainFromSweBenchPro, isSweBenchProInstance } from './swebenchPro';

export interface LoadChainOptions {
  /** ChainSWE dataset: which chain (`continuous_id`). */
  chainId?: string;
  /** SWE-bench instances: which ones, in chain order. */
  instanceIds?: string[];
}

/**
 * Any supported chain file -> one normalised Chain. The format is recognised from the content:
 * objects with `bug_fixes` are ChainSWE chains, objects with `instance_id` SWE-bench instances
 * (SWE-bench Pro's when they carry its own fields, such as `selected_test_files_to_run`).
 * Throws UserError with one detail line per problem (file, line for JSONL, JSON path).
 */
export function loadChain(fileName: string, text: string, options: LoadChainOptions = {}): Chain {
  const docs = parseJsonDocuments(fileName, text);
  const first = docs[0].value;
  if (isChainSweDocument(first)) {
    // In a dataset, a record missing bug_fixes is a broken chain (reported by the schema), but an
    // array or a SWE-bench instance means the file mixes formats.
    const notChains = docs.filter(
      (d) =>
        typeof d.value !== 'object' ||
        d.value === null ||
        Array.isArray(d.value) ||
        ('instance_id' in d.value && !('continuous_id' in d.value)),
    );
    if (notChains.length) {
      throw new UserError(
        `${fileName} mixes ChainSWE chains with other records`,
        'input',
        notChains.map((d) => `${fileName}:${d.line}: $: expected a chain object with bug_fixes`),
      );
    }
    if (options.instanceIds?.length)
      throw new OptionError('instances', 'applies to SWE-bench instance files, not ChainSWE chains');
    const doc = pickChainSweDocument(fileName, docs, options.chainId);
    return isCodeThreadDocument(doc.value) ? chainFromCodeThread(fileName, doc) : chainFromChainSwe(fileName, doc);
  }
  const looksLikeInstances =
    Array.isArray(first) || (typeof first === 'object' && first !== null && 'instance_id' in first);
  if (looksLikeInstances) {
    if (options.chainId !== undefined)
      throw new OptionError('chainId', 'applies to ChainSWE datasets; SWE-bench instances are picked by instance id');
    const firstInstance = Array.isArray(first) ? first[0] : first;
    if (isSweBenchProInstance(firstInstance)) return chainFromSweBenchPro(fileName, docs, options.instanceIds);
    return chainFromSweBench(fileName, docs, options.instanceIds);
  }
  throw new UserError(`${fileName} is neither a ChainSWE chain nor SWE-bench instances`, 'input', [
    `${fileName}${docs[0].line ? `:${docs[0].line}` : ''}: $: expected an object with 'bug_fixes' (ChainSWE) or 'instance_id' (SWE-bench), or a list of instances`,
  ]);
}
