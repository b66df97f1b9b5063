// Where ChainLens's file and folder dialogs start: the workspace root. Left to itself VS Code
// starts at the folder of the active editor's file (a package folder such as invoicekit/), so
// accepting the default picks a folder that is not the repository.
import * as vscode from 'vscode';

export function workspaceRootUri(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri;
}

/** showOpenDialog, starting at `start` (default: the workspace root) unless the caller names another. */
export function openDialog(options: vscode.OpenDialogOptions, start?: vscode.Uri): Thenable<vscode.Uri[] | undefined> {
  return vscode.window.showOpenDialog({ defaultUri: start ?? workspaceRootUri(), ...options });
}
