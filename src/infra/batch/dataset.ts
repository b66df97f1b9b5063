import { extname, resolve } from 'node:path';
import type { Chain } from '../../protocol/chain';
import { chainFromChainSwe, isChainSweDocument } from '../../core/formats/chainswe';
import { documentLocation, parseJsonDocuments, type JsonDocument } from '../../core/formats/documents';
import { loadChain } from '../../core/formats/loadChain';
import { UserError } from '../../core/util/errors';
import { readUserFile } from '../files';
import { readParquetDocuments } from './parquet';

export interface DatasetChain {
  readonly chain: Chain;
  /** "file.jsonl:3", "chain.json", "train.parquet:12": where it came from. */
  readonly origin: string;
}

/**
 * Every chain of the dataset files: ChainSWE JSONL (one chain per line) or JSON, Parquet files
 * with the same records (one per row), and SWE-bench (or CodeThread) instance files, each of which
 * is one chain in file order. Problems are collected across all files, one line each (file, line,
 * JSON path), and thrown together: a dataset with a bad line is refused before anything runs.
 */
export async function readDataset(cwd: string, files: readonly string[]): Promise<DatasetChain[]> {
  const out: DatasetChain[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const path = resolve(cwd, file);
    try {
      const parquet = extname(path).toLowerCase() === '.parquet';
      const text = parquet ? null : readUserFile(path, 'dataset file');
      const docs = text === null ? await readParquetDocuments(path) : parseJsonDocuments(path, text);
      out.push(...chainsOf(path, docs, text));
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(...(e.details.length ? e.details : [e.message]));
    }
  }
  problems.push(...duplicateChainIds(out));
  if (problems.length === 1) throw new UserError(problems[0], 'input');
  if (problems.length)
    throw new UserError(`the dataset cannot be read (${problems.length} problems)`, 'input', problems);
  if (out.length === 0) throw new UserError('the dataset holds no chain', 'input');
  return out;
}

/**
 * A problem per chain whose id an earlier chain has: records and work trees are keyed by the id,
 * so a batch refuses such a dataset, and `validate` says so too (one rule for both).
 */
export function duplicateChainIds(chains: readonly { chain: { id: string }; origin: string }[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const c of chains) {
    const before = seen.get(c.chain.id);
    if (before) problems.push(`${c.origin}: chain id '${c.chain.id}' is also the id of ${before}`);
    else seen.set(c.chain.id, c.origin);
  }
  return problems;
}

function chainsOf(path: string, docs: JsonDocument[], text: string | null): DatasetChain[] {
  if (docs.some((d) => isChainSweDocument(d.value))) {
    const chains: DatasetChain[] = [];
    const problems: string[] = [];
    for (const doc of docs) {
      try {
        if (!isChainSweDocument(doc.value))
          throw new UserError('mixed records', 'input', [
            `${documentLocation(path, doc)}: $: expected a chain object with bug_fixes`,
          ]);
        chains.push({ chain: chainFromChainSwe(path, doc), origin: documentLocation(path, doc) });
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        problems.push(...(e.details.length ? e.details : [e.message]));
      }
    }
    if (problems.length) throw new UserError(`${path} has invalid chains`, 'input', problems);
    return chains;
  }
  // SWE-bench-style instances: the file is one chain, its instances in file order.
  // (Parquet rows become JSONL lines, row n on line n, so messages name the row.)
  const chain = loadChain(path, text ?? docs.map((d) => JSON.stringify(d.value)).join('\n'));
  return [{ chain, origin: path }];
}
