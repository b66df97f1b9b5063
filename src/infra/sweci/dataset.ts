import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readMetadataCsv, type MetadataRow } from '../../core/sweci';
import { OptionError, UserError } from '../../core/util/errors';
import { readUserFile } from '../files';

/**
 * A SWE-CI dataset folder as SWE-CI's download script lays it out (docs/sweci.md):
 *   metadata/<split>.csv          one task per row: task_id, current_sha, target_sha, test_gap
 *   data/<task_id>/code.zip       the repository (with its git history)
 *   data/<task_id>/image.tar.gz   the task's environment image (`docker save | gzip`)
 */
export interface SweciTaskFiles {
  metadataFile: string;
  row: MetadataRow;
  codeZip: string;
  imageArchive: string;
}

export function metadataPath(datasetDir: string, split: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(split))
    throw new OptionError('split', `must be a split name like 'default', not '${split}'`);
  return join(resolve(datasetDir), 'metadata', `${split}.csv`);
}

/** Every row of a split's metadata, checked (a bad row is an error naming its line, task and field). */
export function readSplit(datasetDir: string, split: string): { file: string; rows: MetadataRow[] } {
  const dir = resolve(datasetDir);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UserError(`the SWE-CI dataset folder ${dir} does not exist`, 'input');
  const file = metadataPath(dir, split);
  return { file, rows: readMetadataCsv(readUserFile(file, `the metadata of split '${split}'`), file) };
}

/** One task's row and files; a task missing from the metadata or a missing archive is an error naming it. */
export function taskFiles(datasetDir: string, split: string, taskId: string): SweciTaskFiles {
  const { file, rows } = readSplit(datasetDir, split);
  const row = rows.find((r) => r.row.task_id === taskId);
  if (!row)
    throw new UserError(
      `task '${taskId}' is not in ${file} (${rows.length} task${rows.length === 1 ? '' : 's'}: ${rows
        .slice(0, 5)
        .map((r) => r.row.task_id)
        .join(', ')}${rows.length > 5 ? ', …' : ''})`,
      'input',
    );
  const folder = join(resolve(datasetDir), 'data', taskId);
  const codeZip = join(folder, 'code.zip');
  const imageArchive = join(folder, 'image.tar.gz');
  for (const [path, what] of [
    [codeZip, 'repository archive'],
    [imageArchive, 'environment image archive'],
  ] as const)
    if (!existsSync(path)) throw new UserError(`task '${taskId}': its ${what} ${path} does not exist`, 'input');
  return { metadataFile: file, row, codeZip, imageArchive };
}
