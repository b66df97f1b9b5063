// Attaching agents in VS Code: the ChainLens tools as language-model tools (agent mode chat and
// any extension calling vscode.lm.invokeTool), the `chainlens mcp` server announced to VS Code's
// MCP client, and the commands a person uses to hand the current step to an agent, stop the
// agent, or take the step over (the AH condition: agent step 1, person step 2).
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { AGENT_TOOLS, type AgentToolDefinition } from '../../core/agent/tools';
import { AgentFeedbackSchema, type AgentFeedback } from '../../protocol/agent';
import { AgentSession } from '../../app/agent/session';
import { handStepToAgent, takeOverStep } from '../../infra/agent/handover';
import { saveAgentSettings } from '../../infra/agent/agentFiles';
import { showError } from '../errors';
import { requireTrust, restrictedMessage } from '../trust';
import type { ChainLensServices } from '../services';

/** Name of a ChainLens tool among VS Code's language-model tools (package.json languageModelTools). */
export function lmToolName(tool: AgentToolDefinition): string {
  return `chainlens_${tool.name}`;
}

export const MCP_PROVIDER_ID = 'chainlens.mcp';

function agentName(): string {
  return vscode.workspace.getConfiguration('chainlens.agent').get<string>('name')?.trim() || 'vscode-agent';
}

/** The feedback level a person set in the settings, or undefined when they did not (the run's own then counts). */
function configuredFeedback(): AgentFeedback | undefined {
  const i = vscode.workspace.getConfiguration('chainlens.agent').inspect<string>('testFeedback');
  const value = i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
  const parsed = AgentFeedbackSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function registerAgent(context: vscode.ExtensionContext, services: ChainLensServices): void {
  let session: { key: string; session: Promise<AgentSession> } | undefined;

  const sessionFor = (): Promise<AgentSession> => {
    const run = services.runs.current;
    if (!run)
      return Promise.reject(
        new Error('No chain run is open in this window: open a chain with "ChainLens: Open Chain…" first.'),
      );
    const agent = agentName();
    const key = `${run.dir}\n${agent}`;
    if (session?.key !== key) {
      const evaluate = async (_ws: unknown, signal?: AbortSignal) => {
        const cts = new vscode.CancellationTokenSource();
        signal?.addEventListener('abort', () => cts.cancel(), { once: true });
        try {
          return await services.evaluation.evaluate({ source: 'worktree', origin: 'agent', token: cts.token });
        } finally {
          cts.dispose();
        }
      };
      session = { key, session: AgentSession.open({ dir: run.dir, agent, feedback: configuredFeedback(), evaluate }) };
      session.session.catch(() => (session = undefined));
    }
    return session.session;
  };

  for (const tool of AGENT_TOOLS) {
    context.subscriptions.push(
      vscode.lm.registerTool<Record<string, unknown>>(lmToolName(tool), {
        prepareInvocation: () => ({ invocationMessage: `ChainLens: ${tool.title.toLowerCase()}` }),
        async invoke(options, token) {
          // Every tool opens the run with git (and submit_step commits): not in Restricted Mode.
          // The refusal goes back to the model as the tool's answer, like any other error.
          if (!vscode.workspace.isTrusted)
            return textResult(`Error: ${restrictedMessage(`ChainLens's ${tool.name} tool`)}`);
          const ac = new AbortController();
          const sub = token.onCancellationRequested(() => ac.abort());
          try {
            const s = await sessionFor();
            const result = await s.call(tool.name, options.input ?? {}, ac.signal);
            // Any call may change the run (the agent claims the step, submits it): show it.
            await services.runs.reload();
            // Errors go back to the model as the tool's answer, so it can correct itself.
            return textResult(result.text);
          } finally {
            sub.dispose();
          }
        },
      }),
    );
  }

  // `chainlens mcp` for VS Code's MCP client (and agents it hosts), on the open work tree.
  const definitionsChanged = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    definitionsChanged,
    services.onDidChangeRun(() => definitionsChanged.fire()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => definitionsChanged.fire()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('chainlens.agent')) return;
      definitionsChanged.fire();
      const feedback = configuredFeedback();
      const run = services.runs.current;
      if (feedback && run) saveAgentSettings(run.workspace.store.root, run.state.runId, { feedback });
    }),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: definitionsChanged.event,
      provideMcpServerDefinitions: () => {
        const run = services.runs.current;
        // The server runs git in the folder like the tools do: none in Restricted Mode.
        if (!run || !vscode.workspace.isTrusted) return [];
        const cli = context.asAbsolutePath('dist/cli.js');
        if (!existsSync(cli)) {
          services.output.warn(`ChainLens MCP server not offered: ${cli} is missing from this installation`);
          return [];
        }
        const args = [cli, 'mcp', '--dir', run.dir, '--agent-name', agentName()];
        const feedback = configuredFeedback();
        if (feedback) args.push('--feedback', feedback);
        // process.execPath is VS Code's own runtime; as Node it runs the bundled CLI.
        return [
          new vscode.McpStdioServerDefinition(
            'ChainLens',
            process.execPath,
            args,
            { ELECTRON_RUN_AS_NODE: '1' },
            context.extension.packageJSON.version as string,
          ),
        ];
      },
    }),
  );

  const handover =
    (what: string, action: (dir: string) => Promise<{ step: number }>, done: (step: number) => string) => async () => {
      const run = services.runs.current;
      if (!run) return void vscode.window.showWarningMessage('No chain run is open: open a chain first.');
      try {
        requireTrust('Changing who solves the step');
        const { step } = await action(run.dir);
        await services.runs.reload();
        services.output.info(done(step));
        void vscode.window.showInformationMessage(done(step));
      } catch (e) {
        showError(services.output, e, what);
      }
    };
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'chainlens.agent.handStep',
      handover(
        'Could not hand the step to the agent',
        (dir) => handStepToAgent(dir, agentName()),
        (k) => `Step ${k} is now the agent's (${agentName()}): it can work and submit it through the ChainLens tools.`,
      ),
    ),
    vscode.commands.registerCommand(
      'chainlens.agent.takeOver',
      handover(
        'Could not take the step over',
        (dir) => takeOverStep(dir, 'taken_over', personName()),
        (k) =>
          `You have taken over step ${k}: the agent's changes stay in the work tree, its trajectory is kept, and it can no longer submit the step.`,
      ),
    ),
    vscode.commands.registerCommand(
      'chainlens.agent.stop',
      handover(
        'Could not stop the agent',
        (dir) => takeOverStep(dir, 'stopped', personName()),
        (k) => `The agent was stopped on step ${k}; the step is yours now (hand it back with "Hand Step to Agent").`,
      ),
    ),
  );
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

function personName(): string | undefined {
  const name = process.env.USER ?? process.env.USERNAME;
  return name?.trim() || undefined;
}
