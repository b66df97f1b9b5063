// `chainlens eval`: what runs before the command's own modules load. They are most of the
// CLI (the run engine, the grading parsers, Docker's client), so the engine is asked first
// (engineAhead.ts: ping, image lookup, the first container when --image names one that is there),
// and its answers arrive while the rest loads (evalRun.ts). See docs/reference/containers.md.
import type { CliCommand } from '../command';
import { CHAIN_RUN_OPTIONS, ONE_CHAIN_FILE, parseCommandArgs, requireOption } from '../args';
import { imageReferenceProblem } from '../../core/formats/imageReference';
import { applyNetworkOption, NETWORK_USAGE } from '../networkOption';

const usage = `usage: chainlens eval <chain-file> --repo <path|url> --dir <workdir> --mode seq|oracle --predictions <file|gold>
                      [--steps 1-3] [--timeout <s>] [--profile swebench-v5|swebench-v4] [--report <out.json>]
                      [--image <override>] [--repo-path-in-image <path>|none] [--chain-id <id>] [--instances <id,...>]
                      [--condition HH|HA|AA] [--network none|bridge|host|<name>]

Replays the chain in <workdir> with every step authored by the predictions (or gold), then runs each
step's FAIL_TO_PASS / PASS_TO_PASS tests in a fresh container of the chain's image and grades the
log exactly like the SWE-bench harness. Prints a table; --report writes the run's JSON report, and
each step's log and SWE-bench report.json are kept in the run's state folder (\`chainlens status\`
names it; outside the work tree, so a solver never sees them), under runs/<run>/evals/.
Ctrl-C cancels and removes the container.
--condition  a CodeThread task's authors: HH = gold, gold; HA = gold, then the predictions; AA = the
             predictions for both steps (step 1 as <instance>.implementation). Step 1 is graded by the
             PR1 filter and shown as "filter passed" or "filter failed".
${NETWORK_USAGE}`;

const EVAL_OPTIONS = {
  ...CHAIN_RUN_OPTIONS,
  steps: { type: 'string' },
  timeout: { type: 'string' },
  profile: { type: 'string' },
  report: { type: 'string' },
  image: { type: 'string' },
  'repo-path-in-image': { type: 'string' },
  condition: { type: 'string' },
  network: { type: 'string' },
} as const;

export const evalCommand: CliCommand = {
  name: 'eval',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, EVAL_OPTIONS, usage, ONE_CHAIN_FILE);
    for (const [value, flag] of [
      [values.predictions, '--predictions'],
      [values.mode, '--mode'],
      [values.dir, '--dir'],
      [values.repo, '--repo'],
    ] as const)
      requireOption(value, flag, usage);
    // Before the first container is started ahead.
    applyNetworkOption(values.network, usage);
    // Read-only until the arguments are checked: a ping and a lookup (and, for an --image the
    // engine has, a container that is removed if nothing takes it).
    const image = values.image !== undefined && imageReferenceProblem(values.image) === null ? values.image : undefined;
    // Loaded first and alone, so its requests are out while the rest loads.
    const { askEngineAhead } = await import('../../infra/docker/engineAhead');
    const engine = askEngineAhead(image, {
      runId: 'eval',
      name: `chainlens-eval-${Math.random().toString(36).slice(2, 8)}`,
    });
    // One turn of the event loop, so that those requests are on the wire (a connection's request
    // is written once it has connected) before the rest loads, which keeps this thread busy.
    await new Promise((r) => setImmediate(r));
    const { runEval } = await import('./evalRun');
    return runEval(io, { values, positionals, usage }, engine);
  },
};
