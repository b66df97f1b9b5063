import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit } from './exec';

/**
 * The unified diff of two versions of one file's text (the editor's unsaved text against the
 * step's start), made by git. A diff in JavaScript took over a second on the extension host's
 * thread for a 10,000-line file with hundreds of changed functions (every keystroke's refresh
 * paid it); git takes milliseconds, and its hunks are those `git diff` gives once the file is
 * saved, so unsaved and saved text get the same annotations. The header names the temp files
 * `a` and `b`: the caller names the file (docs/reference/analysis.md, Inputs).
 */
export async function diffTexts(before: string, after: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'chainlens-textdiff-'));
  try {
    await Promise.all([writeFile(join(dir, 'a'), before), writeFile(join(dir, 'b'), after)]);
    // --text: editor text is diffed as text, as the editor shows it; fixed prefixes whatever the
    // user's diff.noprefix / diff.mnemonicPrefix say.
    const args = [
      'diff',
      '--no-index',
      '--text',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      '--',
      'a',
      'b',
    ];
    // --no-index exits 1 when the files differ, 0 when they do not.
    return await runGit(args, { cwd: dir, answers: [1] });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
