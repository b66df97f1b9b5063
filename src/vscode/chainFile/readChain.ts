// Reading a chain file for Open Chain: any format loadChain knows, a chain picked from a dataset
// of several, and every problem of a bad file in the Problems panel at its line.
import * as vscode from 'vscode';
import { parseJsonDocuments } from '../../core/formats/documents';
import { loadChain } from '../../core/formats/loadChain';
import { isUserError } from '../../core/util/errors';
import type { Chain } from '../../protocol/chain';
import { readUserFile } from '../../infra/files';
import { locateProblems } from './problemLocations';

export class ChainFileProblems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('chainlens');

  /** Puts the error's problems on the chain file (`shownAs`: the name its messages use); true when there was something to show. */
  report(file: string, text: string, error: unknown, shownAs = file): boolean {
    if (!isUserError(error)) return false;
    const problems = locateProblems(shownAs, text, error.details, error.message).map((p) => {
      const d = new vscode.Diagnostic(
        new vscode.Range(p.line, p.column, p.line, p.endColumn),
        p.message,
        vscode.DiagnosticSeverity.Error,
      );
      d.source = 'ChainLens';
      return d;
    });
    this.collection.set(vscode.Uri.file(file), problems);
    return problems.length > 0;
  }

  clear(file: string): void {
    this.collection.delete(vscode.Uri.file(file));
  }

  dispose(): void {
    this.collection.dispose();
  }
}

/** continuous_id of every chain in a ChainSWE dataset (JSONL), for a quick pick; [] for other files. */
function chainIds(file: string, text: string): string[] {
  try {
    return parseJsonDocuments(file, text)
      .map((d) =>
        typeof d.value === 'object' && d.value !== null && 'bug_fixes' in d.value
          ? (d.value as { continuous_id?: unknown }).continuous_id
          : undefined,
      )
      .filter((id): id is string => typeof id === 'string');
  } catch {
    return []; // loadChain reports the syntax error with its position
  }
}

export interface ReadChainResult {
  chain: Chain;
  file: string;
}

/**
 * Loads the chain in `file`; asks which one when a dataset holds several (unless `chainId`).
 * A bad file: its problems go to the Problems panel and the UserError is rethrown for the
 * notification. undefined when the person dismissed the chain picker.
 */
export async function readChain(
  file: string,
  problems: ChainFileProblems,
  chainId?: string,
): Promise<ReadChainResult | undefined> {
  const text = readUserFile(file, 'chain file');
  let chosen = chainId;
  if (chosen === undefined) {
    const ids = chainIds(file, text);
    if (ids.length > 1) {
      const pick = await vscode.window.showQuickPick(
        ids.map((id) => ({ label: id })),
        {
          title: 'Open Chain: which chain of the dataset?',
          placeHolder: `${ids.length} chains in ${vscode.workspace.asRelativePath(file)}`,
          matchOnDescription: true,
          ignoreFocusOut: true,
        },
      );
      if (!pick) return undefined;
      chosen = pick.label;
    }
  }
  // Messages name the file as the Explorer shows it ("chains/x.json"), not by its absolute path.
  const shownAs = vscode.workspace.asRelativePath(file, false);
  try {
    const chain = loadChain(shownAs, text, { chainId: chosen });
    problems.clear(file);
    return { chain, file };
  } catch (e) {
    problems.report(file, text, e, shownAs);
    throw e;
  }
}
