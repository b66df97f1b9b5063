// Label files out of the editor: export the run's labels, and the agreement of two labellers
// (Cohen's kappa), read and checked as `chainlens labels agree` does (src/infra/labels/labelFile.ts,
// src/core/labels/agreementSides.ts). A run's shared file holding several labellers is compared
// within itself: pick the two labellers.
import { copyFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { agreement } from '../../core/labels/agreement';
import { checkAgreementSides, describePairing, type AgreementSide } from '../../core/labels/agreementSides';
import { formatAgreement } from '../../core/labels/format';
import { readLabelFile } from '../../infra/labels/labelFile';
import type { DriftLabelRecord } from '../../protocol/labels';
import { guarded } from '../errors';
import { openDialog } from '../util/pickerStart';
import type { LabelSession } from './labelSession';

const pickFile = async (which: string): Promise<vscode.Uri | undefined> =>
  (
    await openDialog({
      title: `Drift labels of the ${which} labeller`,
      canSelectMany: false,
      filters: { 'Drift labels': ['jsonl'] },
    })
  )?.[0];

/** The two sides: two files, or two labellers of one shared file; undefined when the person stopped. */
async function chooseSides(): Promise<[AgreementSide, AgreementSide] | undefined> {
  const a = await pickFile('first');
  if (!a) return undefined;
  const ra = await readLabelFile(a.fsPath);
  const labellers = [...new Set(ra.map((r: DriftLabelRecord) => r.labeller))];
  if (labellers.length > 1) {
    const picked = await vscode.window.showQuickPick(labellers, {
      title: `${basename(a.fsPath)} holds ${labellers.length} labellers: pick the two to compare`,
      canPickMany: true,
    });
    if (!picked) return undefined;
    if (picked.length !== 2) throw new Error(`Pick two labellers of ${basename(a.fsPath)} (${picked.length} picked).`);
    return [
      { name: `${a.fsPath} (${picked[0]})`, records: ra, labeller: picked[0] },
      { name: `${a.fsPath} (${picked[1]})`, records: ra, labeller: picked[1] },
    ];
  }
  const b = await pickFile('second');
  if (!b) return undefined;
  return [
    { name: a.fsPath, records: ra },
    { name: b.fsPath, records: await readLabelFile(b.fsPath) },
  ];
}

export function registerLabelFiles(session: LabelSession): vscode.Disposable[] {
  const { services } = session;
  return [
    vscode.commands.registerCommand(
      'chainlens.exportDriftLabels',
      guarded(services.output, 'Export Drift Labels', async () => {
        const s = session.store();
        if ((await s.load()).length === 0)
          throw new Error('No drift labels yet for this run: label changed code first.');
        const target = await vscode.window.showSaveDialog({
          title: 'Export drift labels (JSONL)',
          defaultUri: vscode.Uri.joinPath(vscode.Uri.file(services.run!.dir), '..', basename(s.path)),
          filters: { 'Drift labels': ['jsonl'] },
        });
        if (!target) return;
        copyFileSync(s.path, target.fsPath);
        void vscode.window.showInformationMessage(`ChainLens: drift labels exported to ${target.fsPath}.`);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.driftLabelAgreement',
      guarded(services.output, 'Drift Label Agreement', async () => {
        const sides = await chooseSides();
        if (!sides) return;
        const [a, b] = checkAgreementSides(sides[0], sides[1], { a: 'the first file', b: 'the second file' });
        const text = formatAgreement(agreement(a.records, b.records), 'A', 'B');
        const md = [
          `# Drift label agreement`,
          '',
          `- A: \`${a.name}\` (${a.labeller}, ${a.records.length} records)`,
          `- B: \`${b.name}\` (${b.labeller}, ${b.records.length} records)`,
          '',
          describePairing(a, b),
          '',
          '```text',
          text,
          '```',
          '',
        ].join('\n');
        const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: md });
        await vscode.window.showTextDocument(doc, { preview: true });
        await vscode.commands.executeCommand('markdown.showPreview', doc.uri);
      }),
    ),
  ];
}
