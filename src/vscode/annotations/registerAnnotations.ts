// Overshoot, undershoot and drift in the editor: one register call from extension.ts, whose
// controller drift labelling (src/vscode/labels) and symbol compare (src/vscode/gold) build on. Everything shown is relative to the gold patch, not proof of a bug.
import * as vscode from 'vscode';
import { isStepArg } from '../commandArgs';
import { guarded } from '../errors';
import type { ChainLensServices } from '../services';
import { AnnotationController } from './annotationController';
import { AnnotationHoverProvider } from './hover';
import { SymbolLensProvider } from './symbolLenses';

export function registerAnnotations(
  context: vscode.ExtensionContext,
  services: ChainLensServices,
): AnnotationController {
  const controller = new AnnotationController(services);
  const lenses = new SymbolLensProvider(services, controller);
  context.subscriptions.push(
    controller,
    lenses,
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, lenses),
    vscode.languages.registerHoverProvider(
      { scheme: 'file' },
      new AnnotationHoverProvider(
        () => (services.disclosure.current.annotations ? controller.current : undefined),
        (uri, line) => controller.annotationsAt(uri, line),
      ),
    ),
    vscode.commands.registerCommand(
      'chainlens.toggleAnnotations',
      guarded(services.output, 'Toggle Annotations', async () => {
        const shown = await controller.toggle();
        lenses.refresh();
        void vscode.window.setStatusBarMessage(
          shown
            ? 'ChainLens annotations on (overshoot/undershoot are relative to gold, not proof of a bug)'
            : 'ChainLens annotations off',
          4000,
        );
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.annotateStep',
      guarded(services.output, 'Annotate Step', async (arg?: unknown) => {
        const run = services.run;
        if (!run) throw new Error('No chain is open.');
        let order = isStepArg(arg) ? arg.order : undefined;
        if (order === undefined) {
          const items = run.state.steps
            .filter((s) => s.start !== null)
            .map((s) => ({
              label: `Step ${s.order}`,
              description: `${s.instanceId} · ${s.status}`,
              order: s.order as number | undefined,
            }));
          items.unshift({
            label: 'Automatic',
            description: 'the current step (once every step has ended, the last one)',
            order: undefined,
          });
          const pick = await vscode.window.showQuickPick(items, {
            title: "Annotate which step's patch (compared with its gold patch)?",
          });
          if (!pick) return;
          order = pick.order;
        }
        await controller.showStep(order);
        const since = controller.current?.lines.changedSince ?? [];
        if (since.length > 0) {
          void vscode.window.showInformationMessage(
            `ChainLens: step ${controller.current!.order}'s marks are shown only where its code is unchanged since; ${since.length} file(s) changed after it (${since.slice(0, 3).join(', ')}${since.length > 3 ? ', …' : ''}). Compare Step with Gold shows the step's own version.`,
          );
        }
      }),
    ),
  );
  void controller.refresh();
  return controller;
}
