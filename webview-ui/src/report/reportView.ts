// A report (batch Results, Study Results): markup made and escaped by the extension (src/core),
// shown as sent; a number or chart mark with a data-key opens the steps behind it, by click or
// Enter/Space.
import type { FromReportView, ToReportView } from '../../../src/protocol/reportView';
import { viewChannel } from '../vscodeApi';

const channel = viewChannel<FromReportView, undefined>();

export function mountReportView(root: HTMLElement): void {
  const open = (target: EventTarget | null): void => {
    const key = target instanceof Element ? target.closest('[data-key]')?.getAttribute('data-key') : null;
    if (key) channel.post({ type: 'open', key });
  };
  root.addEventListener('click', (e) => open(e.target));
  root.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') open(e.target);
  });
  channel.connect((event: MessageEvent<ToReportView>) => {
    if (event.data?.type === 'show') root.innerHTML = event.data.body;
  });
}
