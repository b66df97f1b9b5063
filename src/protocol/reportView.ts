import * as z from 'zod';

/**
 * Messages between the extension and the report webview (webview-ui/src/report): the Results
 * view of a batch run and Study Results. The extension renders the report's markup (the same as
 * `chainlens report --html` and `chainlens study report`, escaped in src/core) and sends it once
 * the view says `ready`; a cell or chart mark with a `data-key` asks to open the steps behind it.
 */
export type ToReportView = { type: 'show'; body: string };

export const FromReportViewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('open'), key: z.string().min(1) }),
]);
export type FromReportView = z.infer<typeof FromReportViewSchema>;
