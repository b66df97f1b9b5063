import type { Chain } from '../../protocol/chain';
import type { RunState } from '../../protocol/run';
import { analyzeStep } from '../../core/analysis/analyzeStep';
import { createSymbolIndex } from '../../core/analysis/outline';
import type { SymbolIndex } from '../../core/analysis/symbols';
import { composePatches } from '../../core/codethread/compose';
import { conditionOf } from '../../core/codethread/conditions';
import {
  codeThreadAnalysis,
  type CodeThreadReport,
  type CodeThreadRun,
  type DriftFate,
} from '../../core/codethread/report';
import { parsePatch } from '../../core/patch/parse';
import { UserError } from '../../core/util/errors';
import { EvalStore } from '../../infra/evaluation/evalStore';
import { runGit } from '../../infra/git/exec';
import { openWorkspace, type Workspace } from '../../infra/run/workspace';
import { TreeSitterParser } from '../../infra/treesitter/parser';

/** Labels that say PR1 is compatible with the human's: no drift to carry into PR2 (as the study excludes them). */
const NO_DRIFT = new Set(['EQUIVALENT', 'STYLE']);

function reader(ws: Workspace, commit: string) {
  return async (path: string): Promise<string | undefined> => {
    try {
      return await runGit(['cat-file', 'blob', `${commit}:${path}`], { cwd: ws.dir });
    } catch {
      return undefined;
    }
  };
}

/** Drift labels per `file::symbol` of a patch against a gold patch, both from the same pre-image. */
async function driftLabels(
  symbols: SymbolIndex,
  step: string,
  gold: string,
  read: (path: string) => Promise<string | undefined>,
): Promise<Map<string, { file: string; symbol: string; labels: string[] }>> {
  const analysis = await analyzeStep({
    stepPatch: parsePatch(step, 'step'),
    goldPatch: parsePatch(gold, 'gold'),
    readFile: (path) => read(path),
    symbols,
  });
  const out = new Map<string, { file: string; symbol: string; labels: string[] }>();
  for (const d of analysis.drift) {
    if (NO_DRIFT.has(d.label)) continue;
    const key = `${d.file}::${d.symbol}`;
    const entry = out.get(key) ?? { file: d.file, symbol: d.symbol, labels: [] };
    if (!entry.labels.includes(d.label)) entry.labels.push(d.label);
    out.set(key, entry);
  }
  return out;
}

/**
 * Which symbols an agent's PR1 drifted on (suggested drift of PR1 against the human PR1, the
 * gold of step 1) and, for each, what PR2 did: left it as it was (kept), edited it with the drift
 * still suggested against the human PR2 (persisted), or edited it so it no longer is (repaired).
 * Only for Seq runs: under Oracle, PR2 is not built on the agent's PR1.
 */
async function driftFates(
  ws: Workspace,
  state: RunState,
  chain: Chain,
  symbols: SymbolIndex,
): Promise<DriftFate[] | undefined> {
  const [s1, s2] = state.steps;
  if (state.mode !== 'seq' || !s1.start || !s1.end || !s2.end || s2.start !== s1.end) return undefined;
  const pr1 = await ws.git.diff(s1.start, s1.end);
  const drifted = await driftLabels(symbols, pr1, chain.steps[0].goldPatch, reader(ws, s1.start));
  if (drifted.size === 0) return [];
  const pr2 = await ws.git.diff(s1.end, s2.end);
  const touched = new Set(
    (
      await analyzeStep({
        stepPatch: parsePatch(pr2, 'PR2'),
        goldPatch: parsePatch('', 'none'),
        readFile: reader(ws, s1.end),
        symbols,
      })
    ).symbols.step,
  );
  const atPr0 = reader(ws, s1.start);
  const humanPr2 = await composePatches(
    parsePatch(chain.steps[0].goldPatch, 'gold 1'),
    parsePatch(chain.steps[1].goldPatch, 'gold 2'),
    atPr0,
  );
  const after = touched.size
    ? await driftLabels(symbols, await ws.git.diff(s1.start, s2.end), humanPr2, atPr0)
    : new Map();
  return [...drifted.entries()].map(([key, d]) => {
    if (!touched.has(key)) return { ...d, fate: 'kept' as const };
    const still = after.get(key)?.labels.some((l: string) => d.labels.includes(l)) ?? false;
    return { ...d, fate: still ? ('persisted' as const) : ('repaired' as const) };
  });
}

/** `codethread report`: reads each work tree's current run (a CodeThread task) and its latest evaluations. */
export async function codeThreadReport(dirs: readonly string[]): Promise<CodeThreadReport> {
  const symbols = createSymbolIndex(new TreeSitterParser());
  const runs: CodeThreadRun[] = [];
  for (const dir of dirs) {
    const ws = await openWorkspace(dir);
    const { state, chain } = await ws.engine.open();
    if (!chain.codethread)
      throw new UserError(
        `${dir}: run ${state.runId} is of chain '${chain.id}', which is not a CodeThread task`,
        'input',
      );
    const condition = conditionOf(state.steps.map((s) => s.author));
    if (!condition)
      throw new UserError(
        `${dir}: the authors of run ${state.runId} (${state.steps.map((s) => s.author.kind).join(', ')}) make none of HH, HA, AA, AH`,
        'input',
      );
    const evals = new EvalStore(ws.store.root).readIndex(state.runId);
    const e1 = evals['1:submitted'];
    const e2 = evals['2:submitted'];
    const graded = (e: typeof e1) => (e && e.status !== 'error' ? e.resolved : null);
    runs.push({
      dir,
      instanceId: chain.codethread.instance_id,
      condition,
      filterPassed: graded(e1),
      pr2Resolved: graded(e2),
      ...(condition === 'AA' || condition === 'AH' ? { drift: await driftFates(ws, state, chain, symbols) } : {}),
    });
  }
  return codeThreadAnalysis(runs);
}
