// The tools ChainLens offers an attached agent, defined once: the MCP server and VS Code's
// language-model tools both list these (name, description, JSON Schema) and check arguments
// with the same zod schemas before anything runs.
import type * as z from 'zod';
import {
  GetCurrentStepArgsSchema,
  GetRunStatusArgsSchema,
  RunTestsArgsSchema,
  SubmitStepArgsSchema,
  type AgentToolName,
} from '../../protocol/agent';
import { UserError } from '../util/errors';

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
}

export interface AgentToolDefinition {
  readonly name: AgentToolName;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  readonly args: z.ZodType<Record<string, unknown>>;
  /** Changes nothing in the run or the work tree. */
  readonly readOnly: boolean;
}

const noArgs: JsonSchemaObject = { type: 'object', properties: {}, additionalProperties: false };

export const AGENT_TOOLS: readonly AgentToolDefinition[] = [
  {
    name: 'get_current_step',
    title: 'Get the current chain step',
    description:
      'The step of the chain you are to solve now: its problem statement, step number, run mode, SWE-bench instance id and the repository path. ' +
      'Solve it by editing the files of that repository in place (earlier steps are already in it), then call submit_step.',
    inputSchema: noArgs,
    args: GetCurrentStepArgsSchema,
    readOnly: true,
  },
  {
    name: 'get_run_status',
    title: 'Get the chain run status',
    description:
      'Every step of the chain run: which is current, which are submitted, who authored each, and how big each submitted patch is.',
    inputSchema: noArgs,
    args: GetRunStatusArgsSchema,
    readOnly: true,
  },
  {
    name: 'submit_step',
    title: 'Submit the current chain step',
    description:
      'Commits every change in the repository as your solution of the current step and moves the run to the next step (which starts where this one ended). ' +
      'Call it once, when you are done. Optional: `step` (the step number you are submitting; refused if the run is elsewhere), `summary` (what you did, one or two sentences) and `allow_empty` (true to submit a step you did not change; refused otherwise).',
    inputSchema: {
      type: 'object',
      properties: {
        step: {
          type: 'integer',
          minimum: 1,
          description: 'The step number you are submitting (as get_current_step reported it).',
        },
        summary: { type: 'string', maxLength: 4000, description: 'What you changed and why, in one or two sentences.' },
        allow_empty: {
          type: 'boolean',
          description: 'Submit the step although the repository has no change (an empty patch).',
        },
      },
      additionalProperties: false,
    },
    args: SubmitStepArgsSchema,
    readOnly: false,
  },
  {
    name: 'run_tests',
    title: "Run the current step's tests",
    description:
      "Runs the current step's hidden tests against the repository as it is now, in a container, when this run allows test feedback (by default it does not, as in the benchmark). " +
      'Depending on the run it answers with a pass/fail summary or the status of every test.',
    inputSchema: noArgs,
    args: RunTestsArgsSchema,
    readOnly: true,
  },
];

export function agentTool(name: string): AgentToolDefinition {
  const tool = AGENT_TOOLS.find((t) => t.name === name);
  if (!tool)
    throw new UserError(`unknown tool '${name}'; the tools are ${AGENT_TOOLS.map((t) => t.name).join(', ')}`, 'usage');
  return tool;
}

/** The arguments, checked; a UserError naming each bad field otherwise. */
export function parseToolArgs(tool: AgentToolDefinition, raw: unknown): Record<string, unknown> {
  const parsed = tool.args.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => {
    const where = i.path.length ? `'${i.path.join('.')}'` : 'the arguments';
    if (i.code === 'unrecognized_keys')
      return `unknown argument${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `'${k}'`).join(', ')}`;
    return `${where}: ${i.message}`;
  });
  throw new UserError(
    `bad arguments for ${tool.name}: ${problems.join('; ')} (nothing was changed)`,
    'usage',
    problems,
  );
}
