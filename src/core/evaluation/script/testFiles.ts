import { parsePatch } from '../../patch/parse';

/** What a diff does to each file it names, in the terms the eval script needs. */
export interface PatchFileSets {
  /** Files that exist before the patch and still exist after it (content or mode changed). */
  readonly modified: string[];
  /** Files the patch creates (new files and copy targets). */
  readonly added: string[];
  readonly deleted: string[];
  readonly renamed: { readonly from: string; readonly to: string }[];
}

export function patchFileSets(diff: string, source = 'patch'): PatchFileSets {
  const sets: PatchFileSets = { modified: [], added: [], deleted: [], renamed: [] };
  for (const f of parsePatch(diff, source).files) {
    switch (f.status) {
      case 'added':
      case 'copied':
        sets.added.push(f.newPath as string);
        break;
      case 'deleted':
        sets.deleted.push(f.oldPath as string);
        break;
      case 'renamed':
        sets.renamed.push({ from: f.oldPath as string, to: f.newPath as string });
        break;
      default:
        sets.modified.push(f.newPath as string);
    }
  }
  return sets;
}

/** Files to bring back before the test patches apply and again after the tests ran. */
export interface TestFilesPlan {
  /** Exist at the base commit: `git checkout <base> -- <files>`. */
  readonly reset: string[];
  /** Do not exist at the base commit: `rm -f <files>`. */
  readonly remove: string[];
}

/**
 * The reset plan for test patches applied in order (a chain applies the test patches of bugs
 * 1..k). A path's first appearance decides: a patch that modifies, deletes or renames it away
 * means it exists at base (reset it); a patch that creates it means it does not (delete it).
 * Deleting created files is what closes the harness's "conftest.py-only patch" hole: whatever
 * the state under test put at that path is gone before the test patch adds its own version.
 * Unlike the harness (unidiff source/target files), rename targets are deleted too, so a rename
 * in a test patch cannot collide with a file the state under test created.
 */
export function testFilesPlan(testPatches: readonly string[]): TestFilesPlan {
  const existsAtBase = new Map<string, boolean>();
  const note = (path: string, exists: boolean) => {
    if (!existsAtBase.has(path)) existsAtBase.set(path, exists);
  };
  testPatches.forEach((patch, i) => {
    const sets = patchFileSets(patch, `test patch ${i + 1}`);
    for (const p of sets.modified) note(p, true);
    for (const p of sets.deleted) note(p, true);
    for (const r of sets.renamed) {
      note(r.from, true);
      note(r.to, false);
    }
    for (const p of sets.added) note(p, false);
  });
  const reset: string[] = [];
  const remove: string[] = [];
  for (const [path, exists] of existsAtBase) (exists ? reset : remove).push(path);
  return { reset, remove };
}
