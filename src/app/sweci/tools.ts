import { checkSweciCall } from '../../core/sweci/tools';
import { isUserError } from '../../core/util/errors';
import type { SweciRole } from '../../protocol/sweci';
import { readGap } from './gap';
import { readRequirement, writeRequirement } from './requirement';
import { submitIteration } from './submitIteration';

export interface SweciToolResult {
  text: string;
  isError: boolean;
}

/**
 * Runs one SWE-CI tool call for an attached agent (MCP or VS Code): checks the arguments, runs the
 * use case, and answers with text. A problem the agent can act on (bad arguments, the loop has
 * stopped) is an error result, not a crash.
 */
export async function callSweciTool(
  dir: string,
  role: SweciRole,
  agent: string,
  name: string,
  raw: unknown,
  signal?: AbortSignal,
): Promise<SweciToolResult> {
  try {
    const { tool, args } = checkSweciCall(role, name, raw);
    switch (tool.name) {
      case 'get_gap': {
        const view = await readGap(dir);
        const entries = view.entries.map((e) => (args.output ? e : { test: e.test, description: e.description }));
        return ok({ ...view, entries });
      }
      case 'write_requirement': {
        const { iteration } = await writeRequirement(dir, String(args.requirement), 'write_requirement');
        return ok({ iteration, stored: true });
      }
      case 'get_requirement': {
        const got = await readRequirement(dir);
        return got.text === null
          ? { text: `iteration ${got.iteration} has no requirement yet`, isError: true }
          : ok({ iteration: got.iteration, requirement: got.text });
      }
      case 'submit_iteration': {
        const record = await submitIteration({
          dir,
          iteration: args.iteration as number | undefined,
          architect: role === 'programmer' ? undefined : agent,
          programmer: agent,
          signal,
        });
        const last = record.iterations[record.iterations.length - 1];
        return ok({
          iteration: last.iteration,
          passing: last.run.passed.length,
          testsRan: last.run.usable,
          regressions: last.regressions,
          gap: last.gap.length,
          stopped: record.stopped,
        });
      }
    }
  } catch (e) {
    if (isUserError(e)) return { text: e.message, isError: true };
    throw e;
  }
}

function ok(value: unknown): SweciToolResult {
  return { text: JSON.stringify(value, null, 2), isError: false };
}
