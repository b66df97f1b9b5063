// Registers the one `chainlens:` document provider and its run-backed sources: file versions
// (src/app/fileVersions/fileVersion.ts) and step patches (stepPatch.ts). Documents follow the run:
// a change of the run re-reads every open one, a save re-reads the "yours" patches and working versions.
import * as vscode from 'vscode';
import { fileVersion } from '../../app/fileVersions/fileVersion';
import { stepPatchText } from '../../app/fileVersions/stepPatch';
import type { ChainRunSnapshot } from '../../app/run/snapshot';
import { ChainLensDocuments } from './chainLensDocuments';
import { CHAINLENS_SCHEME } from './documentRef';
import type { DisclosureService } from '../services';

const RESTRICTED =
  'Restricted Mode: this is read with git, which ChainLens does not run in an untrusted folder. Trust the folder to see it.\n';

function openRun(run: ChainRunSnapshot | undefined, runId: string): ChainRunSnapshot | string {
  if (!run || run.state.runId !== runId) return `Run ${runId} is not the open run of this window.\n`;
  return run;
}

export function registerDocuments(
  context: vscode.ExtensionContext,
  currentRun: () => ChainRunSnapshot | undefined,
  onDidChangeRun: vscode.Event<unknown>,
  /** The study gate (docs/study.md): gold, agent and submitted versions and the gold patch are refused while it withholds them. */
  disclosure: Pick<DisclosureService, 'require'>,
): ChainLensDocuments {
  const documents = new ChainLensDocuments();
  documents.setSource('version', async (ref) => {
    const run = openRun(currentRun(), ref.runId);
    if (typeof run === 'string') return run;
    if (ref.version !== 'working' && ref.version !== 'base')
      disclosure.require('goldDocuments', `The ${ref.version} version of ${ref.path}`, ref.step);
    if (!vscode.workspace.isTrusted) return RESTRICTED;
    const v = await fileVersion(run, ref.step, ref.version, ref.path);
    return 'text' in v ? v.text : `${v.missing}\n`;
  });
  documents.setSource('patch', async (ref) => {
    const run = openRun(currentRun(), ref.runId);
    if (typeof run === 'string') return run;
    if (ref.side === 'gold') disclosure.require('goldDocuments', 'The gold patch', ref.step);
    // The gold patch is the chain's text; the step's own side is read with git.
    if (ref.side === 'yours' && !vscode.workspace.isTrusted) return RESTRICTED;
    const v = await stepPatchText(run, ref.step, ref.side);
    return 'text' in v ? v.text : `${v.missing}\n`;
  });
  context.subscriptions.push(
    documents,
    vscode.workspace.registerTextDocumentContentProvider(CHAINLENS_SCHEME, documents),
    onDidChangeRun(() => documents.refresh((ref) => ref.kind !== 'trajectory')),
    vscode.workspace.onDidSaveTextDocument(() =>
      documents.refresh(
        (ref) =>
          (ref.kind === 'patch' && ref.side === 'yours') || (ref.kind === 'version' && ref.version === 'working'),
      ),
    ),
  );
  return documents;
}
