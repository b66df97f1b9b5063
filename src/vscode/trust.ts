// Workspace trust: in Restricted Mode ChainLens runs neither containers (a step's tests run the
// repository's code) nor git in the folder (hooks and repository config can run code too). It
// shows what is on disk and says, with a way out, why it does nothing more.
import * as vscode from 'vscode';
import { UserError } from '../core/util/errors';

export const MANAGE_TRUST = 'Manage Workspace Trust';

export function isRestrictedModeError(e: unknown): boolean {
  return e instanceof UserError && e.kind === 'environment' && e.message.startsWith('Restricted Mode');
}

/** Throws when the workspace is not trusted; `action` is what was refused, e.g. "Submitting a step". */
export function requireTrust(action: string): void {
  if (vscode.workspace.isTrusted) return;
  throw new UserError(restrictedMessage(action), 'environment');
}

export function restrictedMessage(action: string): string {
  return `Restricted Mode: ${action} runs git in this folder, and a repository's hooks and configuration can run code. Trust the folder to continue.`;
}

export function offerTrust(message: string): void {
  void vscode.window.showWarningMessage(message, MANAGE_TRUST).then((choice) => {
    if (choice === MANAGE_TRUST) void vscode.commands.executeCommand('workbench.trust.manage');
  });
}
