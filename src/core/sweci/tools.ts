// The tools of a SWE-CI loop for an attached agent, defined once: the MCP server
// (`chainlens sweci mcp`) and VS Code's language-model tools list these and check arguments with
// the same zod schemas before anything runs. The Architect gets the gap and writes the
// requirement; the Programmer reads the requirement and submits the iteration.
import type * as z from 'zod';
import {
  GetGapArgsSchema,
  GetRequirementArgsSchema,
  SubmitIterationArgsSchema,
  WriteRequirementArgsSchema,
  type SweciRole,
  type SweciToolName,
} from '../../protocol/sweci';
import type { JsonSchemaObject } from '../agent/tools';
import { UserError } from '../util/errors';

export interface SweciToolDefinition {
  readonly name: SweciToolName;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  readonly args: z.ZodType<Record<string, unknown>>;
  readonly roles: readonly Exclude<SweciRole, 'both'>[];
  readonly readOnly: boolean;
}

export const SWECI_TOOLS: readonly SweciToolDefinition[] = [
  {
    name: 'get_gap',
    title: 'Get the test gap',
    description:
      'The tests the target version passes that the code does not pass yet, each with how it ended and why (set `output` for each failure section). ' +
      'As the Architect, turn it into a requirement of at most five items (expected behaviour, not implementation) with write_requirement.',
    inputSchema: {
      type: 'object',
      properties: { output: { type: 'boolean', description: 'Include each failing test’s failure output.' } },
      additionalProperties: false,
    },
    args: GetGapArgsSchema,
    roles: ['architect'],
    readOnly: true,
  },
  {
    name: 'write_requirement',
    title: "Write the iteration's requirement",
    description:
      'Stores the requirement document of the current iteration (replacing an earlier one of this iteration). At most five urgent requirements, each with location, description, contract and acceptance.',
    inputSchema: {
      type: 'object',
      properties: { requirement: { type: 'string', minLength: 1, maxLength: 100000 } },
      required: ['requirement'],
      additionalProperties: false,
    },
    args: WriteRequirementArgsSchema,
    roles: ['architect'],
    readOnly: false,
  },
  {
    name: 'get_requirement',
    title: "Get the iteration's requirement",
    description:
      'The requirement document the Architect wrote for the current iteration. As the Programmer, change the code of the repository in place so it holds (leave tests/ alone), then call submit_iteration.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    args: GetRequirementArgsSchema,
    roles: ['programmer'],
    readOnly: true,
  },
  {
    name: 'submit_iteration',
    title: 'Submit the iteration',
    description:
      'Commits the repository as this iteration’s result, runs the tests and answers with the passing count, the regressions and the remaining gap size. The next iteration starts from this code.',
    inputSchema: {
      type: 'object',
      properties: {
        iteration: { type: 'integer', minimum: 1, description: 'The iteration you are submitting.' },
        summary: { type: 'string', maxLength: 4000 },
      },
      additionalProperties: false,
    },
    args: SubmitIterationArgsSchema,
    roles: ['programmer'],
    readOnly: false,
  },
];

/** The tools a role sees. */
export function sweciToolsFor(role: SweciRole): SweciToolDefinition[] {
  return SWECI_TOOLS.filter((t) => role === 'both' || t.roles.includes(role));
}

/** A tool of `role` by name, its arguments checked; a UserError naming the bad field otherwise. */
export function checkSweciCall(
  role: SweciRole,
  name: string,
  raw: unknown,
): { tool: SweciToolDefinition; args: Record<string, unknown> } {
  const tools = sweciToolsFor(role);
  const tool = tools.find((t) => t.name === name);
  if (!tool)
    throw new UserError(`unknown tool '${name}'; the tools are ${tools.map((t) => t.name).join(', ')}`, 'usage');
  const parsed = tool.args.safeParse(raw ?? {});
  if (!parsed.success)
    throw new UserError(
      `bad arguments for ${name}: ${parsed.error.issues.map((i) => `'${i.path.join('.') || 'arguments'}': ${i.message}`).join('; ')} (nothing was changed)`,
      'usage',
    );
  return { tool, args: parsed.data };
}
