import type { GapView } from '../../app/sweci/gap';

/** The gap as a Markdown document a person reads beside the code (the Architect's view). */
export function gapMarkdown(view: GapView): string {
  const lines = [
    `# SWE-CI test gap: ${view.taskId}`,
    '',
    view.iteration === null
      ? 'The loop has stopped.'
      : `Iteration ${view.iteration} of at most ${view.limit}. ${view.passing} tests pass now (base ${view.p0}, oracle ${view.pStar}); ${view.entries.length} oracle test(s) do not pass yet.`,
    '',
  ];
  for (const e of view.entries) {
    lines.push(`## \`${e.test}\``, '', e.description, '');
    if (e.output) lines.push('```text', e.output.replace(/```/g, '`\u200b``'), '```', '');
  }
  return lines.join('\n');
}
