// The head line of a drift label comment, as Markdown: the label bold, then group, step and the
// target, with every name escaped (symbols like `__init__` are code, not emphasis).
import { GROUP_NAMES, groupOf } from '../../core/labels/taxonomy';
import { escapeMarkdown } from '../../core/util/markdown';
import type { DriftLabelRecord } from '../../protocol/labels';

export function labelHeadline(record: DriftLabelRecord): string {
  const g = groupOf(record.label);
  const target = record.symbol ?? `lines ${record.range.startLine}-${record.range.endLine}`;
  return `**${escapeMarkdown(record.label)}** · ${g} ${GROUP_NAMES[g]} · step ${record.step} · ${escapeMarkdown(target)}`;
}
