import { createTwoFilesPatch } from 'diff';
import { applyFilePatch } from '../patch/apply';
import { filePath, type Patch } from '../patch/types';

/**
 * One patch doing what `first` then `second` do, over the files both change, from the texts
 * before `first` (`read`): the HH PR2 of a CodeThread task relative to PR0 is step 1's gold then
 * step 2's. Files either patch adds or deletes whole are left out (no function of them can
 * have drifted).
 */
export async function composePatches(
  first: Patch,
  second: Patch,
  read: (path: string) => Promise<string | undefined>,
): Promise<string> {
  const paths = [...new Set([...first.files, ...second.files].filter((f) => f.status === 'modified').map(filePath))];
  const parts: string[] = [];
  for (const path of paths) {
    const before = await read(path);
    if (before === undefined) continue;
    const f1 = first.files.find((f) => filePath(f) === path);
    const f2 = second.files.find((f) => filePath(f) === path);
    const middle = f1 ? applyFilePatch(before, f1) : before;
    const after = f2 ? applyFilePatch(middle, f2) : middle;
    if (after !== before)
      parts.push(createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, '', '', { context: 3 }));
  }
  return parts.join('');
}
