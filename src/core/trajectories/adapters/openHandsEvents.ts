// What both OpenHands event formats (V0 events, the SDK's events) share: the steps they yield and
// small readers of their fields. Kept apart so openHands.ts and openHandsSdk.ts do not import each other.
import type { ModelStats } from '../../../protocol/trajectory';
import type { StepDraft } from './draft';

export interface EventSteps {
  steps: StepDraft[];
  exitStatus: string | null;
  model: string | null;
  stats: ModelStats | null;
  task: string | null;
}

export function renderEditor(name: string, a: Record<string, unknown>): string {
  const range = Array.isArray(a.view_range) ? ` --view_range ${a.view_range.join(' ')}` : '';
  const line = typeof a.insert_line === 'number' ? ` --insert_line ${a.insert_line}` : '';
  return `${name} ${String(a.command ?? '')} ${String(a.path ?? '')}${range}${line}`;
}

export function parseTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : value + 'Z');
  return Number.isNaN(t) ? null : t;
}

/** `<uploaded_files>\n/workspace/django__django__3.0\n</uploaded_files>` in the instruction. */
export function workspaceRootFrom(instruction: string): string | null {
  const m = /<uploaded_files>\s*\n?\s*(\/[^\s<]+)\s*\n?\s*<\/uploaded_files>/.exec(instruction);
  return m ? m[1].replace(/\/$/, '') : null;
}
