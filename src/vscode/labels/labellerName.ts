// Who is labelling: the `chainlens.labels.labeller` setting first (a study's labellers are
// pseudonymous, so their real names must not go into shared label files), then git's user.name
// in the run's work tree, then the account name.
import { userInfo } from 'node:os';
import * as vscode from 'vscode';
import type { ChainLensServices } from '../services';

export async function labellerName(services: ChainLensServices): Promise<string> {
  const set = vscode.workspace.getConfiguration('chainlens.labels').get<string>('labeller')?.trim();
  if (set) return set;
  const name = await services.run?.workspace.git.userName().catch(() => '');
  return name?.trim() || userInfo().username || 'unknown';
}
