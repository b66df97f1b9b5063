// What a Seq step inherits that its Oracle twin does not (docs/reference/batch.md, "In VS Code"):
// the diff from the Oracle start state of step k (base + gold 1..k-1) to its Seq start state
// (base + the source's patches 1..k-1 as the batch applied them). Both are replayed by the run
// engine into scratch work trees outside the run directory, then compared with git.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chain } from '../../protocol/chain';
import type { StepAuthor } from '../../protocol/run';
import { UserError } from '../../core/util/errors';
import { BatchRunDir } from '../../infra/batch/runDir';
import { loadSource } from '../../infra/batch/sources';
import { runGit } from '../../infra/git/exec';
import { parseRepoSource } from '../../infra/git/mirror';
import { withDataRoot } from '../../infra/run/stateDir';
import { checkoutRun } from '../../infra/run/workspace';
import { chainsOf, repoFor } from './runBatch';

export interface InheritedDifference {
  readonly chainId: string;
  readonly source: string;
  readonly order: number;
  readonly position: number;
  /** `git diff` from the Oracle start state to the Seq start state; '' when they are the same. */
  readonly diff: string;
}

export async function inheritedDifference(
  runDir: string,
  chainId: string,
  sourceName: string,
  order: number,
): Promise<InheritedDifference> {
  const dir = new BatchRunDir(runDir);
  const manifest = dir.readManifest();
  const chain = (await chainsOf(manifest)).get(chainId);
  const declared = manifest.sources.find((s) => s.name === sourceName);
  if (!chain || !declared) throw new UserError(`${dir.root} has no chain ${chainId} of source ${sourceName}`, 'input');
  const index = chain.steps.findIndex((s) => s.order === order);
  if (index < 1)
    throw new UserError(
      `step ${order} of ${chainId} starts at base_commit in both modes: it inherits nothing`,
      'usage',
    );
  const source = loadSource(declared);
  const before: Chain = { ...chain, steps: chain.steps.slice(0, index) };
  const scratch = mkdtempSync(join(tmpdir(), 'chainlens-inherited-'));
  try {
    return await withDataRoot(join(scratch, 'state'), async () => {
      const state = async (name: string, gold: boolean): Promise<string> => {
        const authors: StepAuthor[] = before.steps.map(() =>
          gold || declared.kind === 'gold'
            ? { kind: 'gold' }
            : { kind: 'recorded', model: 'inherited', source: declared.path ?? declared.name },
        );
        const recorded = Object.fromEntries(
          before.steps.map((s) => [s.instanceId, source.predictions.get(s.instanceId)?.patch ?? null]),
        );
        const origin = manifest.chains.find((c) => c.id === chain.id)!.origin;
        const { workspace } = await checkoutRun(
          before,
          parseRepoSource(repoFor(manifest, chain), '/'),
          join(scratch, name),
          { chainFile: origin.replace(/:\d+$/, ''), mode: 'seq', authors, recorded },
          () => {},
          'batch',
        );
        return workspace.dir;
      };
      const oracle = await state('oracle', true);
      const seq = await state('seq', false);
      await runGit(['fetch', '-q', oracle, 'HEAD'], { cwd: seq });
      const diff = await runGit(['diff', 'FETCH_HEAD', 'HEAD'], { cwd: seq });
      return { chainId, source: sourceName, order, position: index + 1, diff };
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
