import * as z from 'zod';

/**
 * Messages between the extension and the problem-statement webview (webview-ui/src/problem).
 * The webview says `ready` once its script runs (and again after it is revived); only then does
 * the extension send `show`. Every message from the webview is validated before it is acted on.
 */
export const ProblemStepViewSchema = z.object({
  chainId: z.string(),
  runId: z.string(),
  mode: z.enum(['seq', 'oracle']),
  order: z.number().int(),
  total: z.number().int(),
  instanceId: z.string(),
  /** Words for the step's status ("current", "resolved", …) and its kind for styling. */
  statusText: z.string(),
  status: z.enum(['pending', 'current', 'submitted', 'resolved', 'unresolved', 'error', 'skipped']),
  author: z.string(),
  /** The problem statement as written (markdown); rendered in the webview, raw HTML disabled. */
  markdown: z.string(),
  hints: z.string().optional(),
  /** Latest test summary ("unresolved · F2P 2/5 · P2P 22/22"), if any. */
  tests: z.string().optional(),
  canRunTests: z.boolean(),
  canSubmit: z.boolean(),
  canCompare: z.boolean(),
});
export type ProblemStepView = z.infer<typeof ProblemStepViewSchema>;

export type ToProblemView = { type: 'show'; step: ProblemStepView } | { type: 'busy'; busy: boolean };

export const ProblemViewActionSchema = z.enum(['runTests', 'submit', 'compareWithGold']);
export type ProblemViewAction = z.infer<typeof ProblemViewActionSchema>;

export const FromProblemViewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('action'), action: ProblemViewActionSchema, order: z.number().int() }),
]);
export type FromProblemView = z.infer<typeof FromProblemViewSchema>;

/** What the webview keeps with vscode.setState, so it redraws at once when revived. */
export interface ProblemViewState {
  step?: ProblemStepView;
}
