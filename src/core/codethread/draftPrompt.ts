/**
 * What the editor's language model is asked when a person wants a richer Implementation Task
 * statement (docs/reference/codethread.md): the template statement and the files of the target
 * functions as PR0 holds them, which the solver sees anyway. Never the gold patch, the removed
 * bodies, the follow-on issue or its tests.
 */
export function draftStatementPrompt(statement: string, files: readonly { path: string; text: string }[]): string {
  const sources = files.map((f) => `--- ${f.path} ---\n${f.text}`).join('\n\n');
  return [
    'You write GitHub issues for a software project. Some functions in the repository lost their',
    'implementation: their bodies only report that they are not implemented. Below is a short issue',
    'asking to restore them, then the files that hold them, as they are now.',
    '',
    'Rewrite the issue so a developer can implement the functions without guessing: for each one,',
    'describe in prose what it should do, its inputs, outputs, errors and side effects, as its name,',
    'signature, docstring and the code that calls it imply. Keep the list of functions, files and',
    'signatures exactly as given. Do not write the implementation, and do not invent requirements',
    'the code does not imply. Answer with the issue text in Markdown only.',
    '',
    '=== Issue ===',
    statement,
    '',
    '=== Files ===',
    sources,
  ].join('\n');
}
