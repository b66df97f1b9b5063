// How ChainLens tells a person something went wrong: one notification with the message written
// for people, and the details (one line per problem) a click away in the output channel.
import * as vscode from 'vscode';
import { isOptionError, isUserError } from '../core/util/errors';
import { vscodeOptionMessage } from './optionWords';
import { isRestrictedModeError, offerTrust } from './trust';

const SHOW_DETAILS = 'Show Details';

export function errorMessage(e: unknown): string {
  if (isOptionError(e)) return vscodeOptionMessage(e);
  return e instanceof Error ? e.message : String(e);
}

/** Logs the error with its details and shows it (without waiting for the notification to be dismissed). */
export function showError(output: vscode.LogOutputChannel, e: unknown, context?: string): void {
  if (e instanceof vscode.CancellationError) return;
  if (isRestrictedModeError(e)) {
    output.warn(errorMessage(e));
    offerTrust(errorMessage(e));
    return;
  }
  // A message that already names what failed (a refusal saying "<command> is not available: …")
  // is not prefixed with the same words again.
  const text = errorMessage(e);
  const message = context && !text.startsWith(context) ? `${context}: ${text}` : text;
  const details = isUserError(e) ? e.details : [];
  output.error(message);
  for (const line of details) output.error(`  ${line}`);
  if (!isUserError(e) && e instanceof Error && e.stack) output.debug(e.stack);
  const summary =
    details.length === 1
      ? `${message} (${details[0]})`
      : details.length > 1
        ? `${message} (${details.length} problems)`
        : message;
  void vscode.window
    .showErrorMessage(summary, ...(details.length > 0 || !isUserError(e) ? [SHOW_DETAILS] : []))
    .then((choice) => {
      if (choice === SHOW_DETAILS) output.show(true);
    });
}

/** Runs a command body, turning any failure into showError (commands must never throw at people). */
export function guarded<A extends unknown[]>(
  output: vscode.LogOutputChannel,
  context: string,
  body: (...args: A) => Promise<unknown>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await body(...args);
    } catch (e) {
      showError(output, e, context);
    }
  };
}

/** Shows engine notes (where uncommitted work was stashed, patches that did not apply). */
export function showNotes(output: vscode.LogOutputChannel, notes: readonly string[]): void {
  for (const note of notes) {
    output.warn(note);
    void vscode.window.showWarningMessage(note);
  }
}
