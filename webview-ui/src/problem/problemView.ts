// The problem statement of a step: which step, its status and latest tests, the actions a
// person takes next, and the issue text rendered as markdown. Colours and fonts come only from
// --vscode-* variables (media/problemStatement.css), so it follows the theme.
import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import type {
  FromProblemView,
  ProblemStepView,
  ProblemViewAction,
  ProblemViewState,
  ToProblemView,
} from '../../../src/protocol/problemStatementView';
import { viewChannel } from '../vscodeApi';
import { renderMarkdown } from './markdown';

const channel = viewChannel<FromProblemView, ProblemViewState>();

class ProblemStatementView extends LitElement {
  static override properties = {
    step: { state: true },
    busy: { state: true },
  };

  declare step: ProblemStepView | undefined;
  declare busy: boolean;
  private rendered = '';

  constructor() {
    super();
    this.step = channel.state()?.step;
    this.busy = false;
  }

  // Light DOM: the markdown styles of media/problemStatement.css reach the rendered issue.
  private disconnect: (() => void) | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.disconnect = channel.connect(this.onMessage);
  }

  override disconnectedCallback(): void {
    this.disconnect?.();
    super.disconnectedCallback();
  }

  private readonly onMessage = (event: MessageEvent<ToProblemView>): void => {
    const message = event.data;
    if (message?.type === 'show') {
      this.step = message.step;
      channel.saveState({ step: message.step });
    } else if (message?.type === 'busy') {
      this.busy = message.busy;
    }
  };

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('step')) this.rendered = this.step ? renderMarkdown(this.step.markdown) : '';
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('step') && this.step) document.title = `Step ${this.step.order}: ${this.step.instanceId}`;
  }

  private act(action: ProblemViewAction): void {
    if (this.step) channel.post({ type: 'action', action, order: this.step.order });
  }

  override render(): unknown {
    const step = this.step;
    if (!step) return html`<p class="empty">Loading the problem statement…</p>`;
    return html`
      <header class="step-header">
        <div class="step-line">
          <span class="step-position">Step ${step.order} of ${step.total}</span>
          <span class="separator" aria-hidden="true">·</span>
          <span>${step.mode === 'seq' ? 'Seq' : 'Oracle'} mode</span>
          <span class="separator" aria-hidden="true">·</span>
          <span>${step.author}</span>
          <span class="status status-${step.status}" role="status">${step.statusText}</span>
        </div>
        <h1 class="instance">${step.instanceId}</h1>
        ${step.tests ? html`<p class="tests">Latest tests: ${step.tests}</p>` : nothing}
        <div class="actions">
          ${
            step.canRunTests
              ? html`<vscode-button icon="beaker" ?disabled=${this.busy} @click=${() => this.act('runTests')}
                  >Run Tests</vscode-button
                >`
              : nothing
          }
          ${
            step.canSubmit
              ? html`<vscode-button icon="check" secondary ?disabled=${this.busy} @click=${() => this.act('submit')}
                  >Submit Step</vscode-button
                >`
              : nothing
          }
          ${
            step.canCompare
              ? html`<vscode-button icon="diff" secondary @click=${() => this.act('compareWithGold')}
                  >Compare Step with Gold</vscode-button
                >`
              : nothing
          }
        </div>
      </header>
      <article class="markdown-body">${unsafeHTML(this.rendered)}</article>
      ${
        step.hints
          ? html`<vscode-collapsible title="Hints"
              ><div class="markdown-body hints">${unsafeHTML(renderMarkdown(step.hints))}</div></vscode-collapsible
            >`
          : nothing
      }
    `;
  }
}

export function mountProblemView(root: HTMLElement): void {
  if (!customElements.get('chainlens-problem-statement'))
    customElements.define('chainlens-problem-statement', ProblemStatementView);
  root.replaceChildren(document.createElement('chainlens-problem-statement'));
}
