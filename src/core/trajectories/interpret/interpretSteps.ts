import type { ToolCall, TrajectoryFormat } from '../../../protocol/trajectory';
import { analyseBash } from './bashCommand';
import { analyseEditorCall, editorCallFromArgs, EDITOR_TOOL_NAMES } from './editorTool';
import { parseMiniObservation, stripOpenHandsSuffix } from './observationText';
import { RepoPaths } from './repoPaths';
import type { StepEffects } from './stepEffects';
import { analyseSweAgentAction } from './sweAgentCommand';

/** The parts of a step its effects are derived from (all present in a normalised step). */
export interface StepAction {
  action: string;
  tool?: ToolCall;
  observation: string;
  exitCode: number | null;
}

const SHELL_TOOLS = new Set(['bash', 'execute_bash', 'terminal', 'run', 'execute_command', 'shell', 'cmd_run']);
const THINK_TOOLS = new Set(['think']);
const SUBMIT_TOOLS = new Set(['finish', 'submit', 'task_complete']);
const PYTHON_TOOLS = new Set(['execute_ipython_cell', 'run_ipython', 'ipython']);

/**
 * Effects of every step in order. Interpretation carries state from step to step the way the
 * agent's tools do: SWE-agent's open file, and the working directory of shells that persist
 * (SWE-agent, OpenHands; mini-swe-agent starts every command in a fresh subshell).
 */
export function interpretSteps(
  steps: readonly StepAction[],
  format: TrajectoryFormat,
  root: string | null,
): StepEffects[] {
  const effects = interpretEach(steps, format, root);
  // a whole-file write to a file the run already showed is a rewrite, not a creation
  const existing = new Set<string>();
  for (const e of effects) {
    const writes = e.ops.filter((o) => o.type === 'write' && o.created === null);
    if (e.kind === 'create' && writes.length && writes.every((o) => 'path' in o && existing.has(o.path))) {
      e.kind = 'edit';
      e.reason = e.reason.replace(/ writes /, ' rewrites ');
    }
    for (const o of e.ops) {
      if (o.type === 'view' || o.type === 'write' || o.type === 'replaceLines' || o.type === 'strReplace')
        existing.add(o.path);
      else if (o.type === 'delete') existing.delete(o.path);
    }
  }
  return effects;
}

function interpretEach(steps: readonly StepAction[], format: TrajectoryFormat, root: string | null): StepEffects[] {
  const paths = new RepoPaths(root);
  let openFile: string | null = null;
  let cwd: string | null = root;
  return steps.map((step): StepEffects => {
    const tool = step.tool;
    if (tool && THINK_TOOLS.has(tool.name))
      return { kind: 'think', reason: 'the agent logged a thought', touches: [], ops: [] };
    if (tool && SUBMIT_TOOLS.has(tool.name) && format !== 'swe-agent')
      return { kind: 'submit', reason: `\`${tool.name}\` ends the run`, touches: [], ops: [] };
    if (!tool && step.action.trim() === '')
      return { kind: 'think', reason: 'the model wrote text without an action', touches: [], ops: [] };

    if (format === 'swe-agent') {
      const e = analyseSweAgentAction(step.action, tool, step.observation, { paths, cwd, openFile });
      openFile = e.openFile;
      cwd = e.cwd;
      return e;
    }
    if (format === 'mini-swe-agent') {
      const parsed = parseMiniObservation(step.observation);
      const output = parsed ?? { output: step.observation, exitCode: step.exitCode, truncated: false };
      const e = analyseBash(step.action, output, { paths, cwd: root });
      // the submit command's output is the final diff (mini strips its marker line)
      if (
        e.kind === 'submit' &&
        !parsed &&
        (/^\s*diff --git /.test(step.observation) || step.observation.trim() === '')
      ) {
        e.ops = [...e.ops.filter((o) => o.type !== 'recordedPatch'), { type: 'recordedPatch', text: step.observation }];
      }
      return e;
    }
    // OpenHands: every action is a tool call
    if (tool && EDITOR_TOOL_NAMES.has(tool.name)) {
      const call = editorCallFromArgs(tool.args);
      if (call) return analyseEditorCall(call, step.observation, { paths, cwd });
    }
    if (tool && PYTHON_TOOLS.has(tool.name))
      return { kind: 'run', reason: 'runs Python code in the IPython tool', touches: [], ops: [] };
    if (!tool || SHELL_TOOLS.has(tool.name)) {
      const { output, exitCode } = stripOpenHandsSuffix(step.observation);
      const e = analyseBash(
        typeof tool?.args.command === 'string' ? tool.args.command : step.action,
        { output, exitCode: step.exitCode ?? exitCode, truncated: false },
        { paths, cwd },
      );
      cwd = e.cwd;
      return e;
    }
    if (tool.name === 'edit_file' || tool.name === 'llm_based_edit') {
      const path = typeof tool.args.path === 'string' ? paths.resolve(tool.args.path, cwd) : null;
      return {
        kind: 'edit',
        reason: 'LLM-based file edit',
        touches: path ? [{ path, access: 'edit', ranges: [] }] : [],
        ops: path ? [{ type: 'untracked', path, reason: 'an LLM-based edit whose result is not recorded' }] : [],
      };
    }
    if (tool.name === 'write_file' && typeof tool.args.path === 'string' && typeof tool.args.content === 'string') {
      const path = paths.resolve(tool.args.path, cwd);
      return {
        kind: 'create',
        reason: 'writes a whole file',
        touches: [{ path, access: 'create', ranges: [] }],
        ops: [{ type: 'write', path, content: tool.args.content, created: null }],
      };
    }
    if (tool.name === 'message') return { kind: 'think', reason: 'the agent wrote a message', touches: [], ops: [] };
    return { kind: 'other', reason: `tool \`${tool.name}\``, touches: [], ops: [] };
  });
}
