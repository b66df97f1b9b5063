import type { SkeletonFile } from './skeleton';

const FENCE: Record<string, string> = {
  python: 'python',
  javascript: 'javascript',
  typescript: 'typescript',
  tsx: 'tsx',
  go: 'go',
  java: 'java',
  rust: 'rust',
};

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lines of `text` (1-based) that name `name` as a word, other than the definition's own lines. */
function usesOf(text: string, name: string, from: number, to: number): number[] {
  const word = new RegExp(`(^|[^A-Za-z0-9_$])${escapeRegExp(name)}(?![A-Za-z0-9_$])`);
  const out: number[] = [];
  text.split('\n').forEach((line, i) => {
    if ((i + 1 < from || i + 1 > to) && word.test(line)) out.push(i + 1);
  });
  return out;
}

function lineList(lines: readonly number[]): string {
  if (lines.length <= 8) return lines.join(', ');
  return `${lines.slice(0, 8).join(', ')} and ${lines.length - 8} more`;
}

/**
 * The Implementation Task's problem statement (step 1 of a CodeThread task), from a fixed
 * template filled from the skeleton: which functions in which files, each as PR0 shows it
 * (signature, decorators, docstring or doc comment), and where the same file uses it. Nothing
 * about the follow-on issue, its tests or the removed code goes in (docs/reference/codethread.md).
 * The same skeleton always gives the same text.
 */
export function implementationTaskStatement(files: readonly SkeletonFile[]): string {
  const stubs = files.flatMap((f) => f.stubs.map((s) => ({ file: f, stub: s })));
  const count = stubs.length === 1 ? 'One function has' : `${stubs.length} functions have`;
  const out: string[] = [
    '# Implement the missing functionality',
    '',
    `${count} lost ${stubs.length === 1 ? 'its' : 'their'} implementation: each body now only reports that it is not implemented. Restore ${stubs.length === 1 ? 'it' : 'them'} so that the code behaves as the rest of the repository and its existing tests expect.`,
    '',
    '- Keep every signature, decorator and docstring as it is.',
    '- Change nothing else unless the implementation needs it; this task is only about the functions listed below.',
    '',
    '## Functions to implement',
  ];
  for (const { file, stub } of stubs) {
    const name = stub.target.function.replace(/#\d+$/, '');
    const shortName = name.slice(name.lastIndexOf('.') + 1);
    const end = stub.line + stub.text.split('\n').length - 1;
    const uses = usesOf(file.skeleton, shortName, stub.line, end);
    out.push(
      '',
      `### \`${name}\` in \`${file.path}\` (line ${stub.line})`,
      '',
      '```' + (FENCE[file.language] ?? ''),
      stub.text,
      '```',
    );
    if (uses.length)
      out.push(
        '',
        `\`${shortName}\` is used in the same file at line${uses.length === 1 ? '' : 's'} ${lineList(uses)}.`,
      );
  }
  out.push('');
  return out.join('\n');
}
