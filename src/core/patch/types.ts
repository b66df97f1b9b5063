/**
 * A parsed unified diff (git flavour, plain `diff -u` accepted too). Line numbers are 1-based,
 * as in the `@@ -a,b +c,d @@` header and in an editor.
 */
export type FileChangeStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied' | 'mode-change';

export interface HunkLine {
  readonly kind: 'context' | 'add' | 'del';
  /** Content without the leading marker and without the line terminator. */
  readonly text: string;
  /** The line ended in CRLF in the patch (the file has Windows line endings here). */
  readonly crlf: boolean;
  /** `\ No newline at end of file` followed this line: it is its side's last line, unterminated. */
  readonly noNewlineAtEnd: boolean;
  /** Line number in the pre-image (context and del lines). */
  readonly oldLine?: number;
  /** Line number in the post-image (context and add lines). */
  readonly newLine?: number;
}

export interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** The text after the second `@@` (git puts the enclosing function line there). */
  readonly section: string;
  readonly lines: readonly HunkLine[];
  /** 1-based line of the `@@` header inside the patch text, for error messages. */
  readonly patchLine: number;
}

export interface FilePatch {
  /** Path before the change (prefix `a/` removed), null for an added file. */
  readonly oldPath: string | null;
  /** Path after the change (prefix `b/` removed), null for a deleted file. */
  readonly newPath: string | null;
  readonly status: FileChangeStatus;
  readonly binary: boolean;
  readonly oldMode?: string;
  readonly newMode?: string;
  /** `similarity index N%` of a rename or copy. */
  readonly similarity?: number;
  readonly hunks: readonly Hunk[];
  /** 1-based line where this file's section starts inside the patch text. */
  readonly patchLine: number;
}

export interface Patch {
  readonly files: readonly FilePatch[];
}

/** The path a file has after the patch, or before it when the patch deletes it. */
export function filePath(file: FilePatch): string {
  return (file.newPath ?? file.oldPath) as string;
}
