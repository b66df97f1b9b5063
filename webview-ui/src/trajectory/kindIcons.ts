// The codicon of each action kind, the same in the list, the detail and the comparison.
import type { ActionKind } from '../../../src/protocol/trajectory';

export const KIND_ICONS: Record<ActionKind, string> = {
  view: 'eye',
  search: 'search',
  edit: 'edit',
  create: 'new-file',
  run: 'terminal',
  test: 'beaker',
  submit: 'check-all',
  think: 'lightbulb',
  other: 'circle-outline',
};
