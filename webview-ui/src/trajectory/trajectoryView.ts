// The trajectory viewer: a virtualised list of steps (only the rows in view are in the DOM, so
// thousands of steps stay fast), filters by action kind, search, keyboard navigation (j/k,
// Home/End) and the selected step's thought, action and observation. The extension sends one
// small row per step and a step's full text only when it is selected.
import { LitElement, html, nothing } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { ActionKind } from '../../../src/protocol/trajectory';
import type {
  FromTrajectoryView,
  ProblemView,
  StepDetail,
  StepRow,
  ToTrajectoryView,
  TrajectoryHeader,
  TrajectoryViewAction,
  TrajectoryViewState,
} from '../../../src/protocol/trajectoryView';
import { cssProps } from '../cssProps';
import { viewChannel } from '../vscodeApi';
import { highlight } from './highlight';
import { KIND_ICONS } from './kindIcons';

const channel = viewChannel<FromTrajectoryView, TrajectoryViewState>();
const ROW_HEIGHT = 24;
const OVERSCAN = 8;

class TrajectoryView extends LitElement {
  static override properties = {
    header: { state: true },
    rows: { state: true },
    problems: { state: true },
    detail: { state: true },
    selected: { state: true },
    filter: { state: true },
    query: { state: true },
    matching: { state: true },
    loading: { state: true },
    failure: { state: true },
    scrollTop: { state: true },
    viewport: { state: true },
  };

  declare header: TrajectoryHeader | undefined;
  declare rows: StepRow[];
  declare problems: ProblemView[];
  declare detail: StepDetail | undefined;
  declare selected: number | undefined;
  declare filter: ActionKind[];
  declare query: string;
  declare matching: Set<number> | undefined;
  declare loading: { bytesRead: number; totalBytes: number } | undefined;
  declare failure: string | undefined;
  declare scrollTop: number;
  declare viewport: number;
  private searchTimer: number | undefined;
  private readonly saved = channel.state() ?? {};
  /** The file being read, known before its header arrives. */
  private loadingFile: string | undefined;
  private resize: ResizeObserver | undefined;

  constructor() {
    super();
    this.rows = [];
    this.problems = [];
    this.filter = (this.saved.filter as ActionKind[] | undefined) ?? [];
    this.query = this.saved.query ?? '';
    this.selected = this.saved.selected;
    this.scrollTop = 0;
    this.viewport = 600;
  }

  private disconnect: (() => void) | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.disconnect = channel.connect(this.onMessage);
    document.addEventListener('keydown', this.onKey);
  }

  override disconnectedCallback(): void {
    this.disconnect?.();
    document.removeEventListener('keydown', this.onKey);
    this.resize?.disconnect();
    super.disconnectedCallback();
  }

  protected override firstUpdated(): void {
    const list = this.querySelector<HTMLElement>('.step-list');
    if (list) {
      this.resize = new ResizeObserver(() => (this.viewport = list.clientHeight || 600));
      this.resize.observe(list);
    }
  }

  private readonly onMessage = (event: MessageEvent<ToTrajectoryView>): void => {
    const m = event.data;
    switch (m?.type) {
      case 'loading':
        this.loading =
          m.totalBytes > 0 && m.bytesRead < m.totalBytes
            ? { bytesRead: m.bytesRead, totalBytes: m.totalBytes }
            : undefined;
        // Save which file this is from the first progress message on: a window reloaded while a
        // large trajectory is still being read then reopens it instead of dropping the viewer.
        if (!this.header && this.loadingFile !== m.file) {
          this.loadingFile = m.file;
          this.save();
        }
        return;
      case 'trajectory': {
        const first = !this.header || this.header.chosen !== m.header.chosen;
        this.header = m.header;
        this.rows = m.rows;
        this.problems = m.problems;
        this.failure = undefined;
        if (m.problems.every((p) => !p.text.includes('still reading'))) this.loading = undefined;
        this.save();
        if (this.query) channel.post({ type: 'search', query: this.query });
        if (first || (this.selected !== undefined && !this.detail)) {
          const keep =
            this.selected !== undefined && this.selected < m.rows.length
              ? this.selected
              : m.rows.length
                ? 0
                : undefined;
          if (keep !== undefined) this.select(keep, false);
        } else if (m.reason === 'appended' && this.selected !== undefined) {
          channel.post({ type: 'select', index: this.selected, follow: false });
        }
        return;
      }
      case 'detail':
        if (m.step.index === this.selected) this.detail = m.step;
        return;
      case 'searchResult':
        if (m.query === this.query) this.matching = new Set(m.matches);
        return;
      case 'failed':
        this.failure = m.message;
        this.loading = undefined;
        return;
    }
  };

  private save(): void {
    channel.saveState({
      file: this.header?.file ?? this.loadingFile,
      trajectory: this.header?.chosen,
      selected: this.selected,
      filter: this.filter,
      query: this.query,
    });
  }

  /** Rows the list shows: the kinds filtered in, and the search matches when searching. */
  private visibleRows(): StepRow[] {
    const kinds = new Set(this.filter);
    return this.rows.filter(
      (r) => (!kinds.size || kinds.has(r.kind)) && (!this.query || !this.matching || this.matching.has(r.index)),
    );
  }

  private select(index: number, follow: boolean): void {
    this.selected = index;
    if (this.detail?.index !== index) this.detail = undefined;
    this.save();
    channel.post({ type: 'select', index, follow });
    this.revealRow(index);
  }

  private revealRow(index: number): void {
    const position = this.visibleRows().findIndex((r) => r.index === index);
    const list = this.querySelector<HTMLElement>('.step-list');
    if (position < 0 || !list) return;
    const top = position * ROW_HEIGHT;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + ROW_HEIGHT > list.scrollTop + list.clientHeight)
      list.scrollTop = top + ROW_HEIGHT - list.clientHeight;
  }

  private readonly onKey = (e: KeyboardEvent): void => {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) {
      if (e.key === 'Escape') target.blur();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const rows = this.visibleRows();
    if (!rows.length) return;
    const at = rows.findIndex((r) => r.index === this.selected);
    let next: number | undefined;
    if (e.key === 'j' || e.key === 'ArrowDown') next = Math.min(rows.length - 1, at + 1);
    else if (e.key === 'k' || e.key === 'ArrowUp') next = Math.max(0, at < 0 ? 0 : at - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = rows.length - 1;
    else if (e.key === '/') {
      e.preventDefault();
      this.querySelector<HTMLInputElement>('.search')?.focus();
      return;
    }
    if (next === undefined) return;
    e.preventDefault();
    this.select(rows[next].index, true);
  };

  private onSearch(value: string): void {
    this.query = value;
    this.matching = undefined;
    this.save();
    window.clearTimeout(this.searchTimer);
    this.searchTimer = window.setTimeout(() => channel.post({ type: 'search', query: value }), 200);
  }

  private toggleKind(kind: ActionKind): void {
    this.filter = this.filter.includes(kind) ? this.filter.filter((k) => k !== kind) : [...this.filter, kind];
    this.save();
  }

  private act(action: TrajectoryViewAction, path?: string): void {
    if (
      this.selected !== undefined ||
      action === 'submission' ||
      action === 'submissionVsGold' ||
      action === 'testPatch'
    )
      channel.post({ type: 'action', action, index: this.selected ?? 0, path });
  }

  override render(): unknown {
    if (this.failure)
      return html`<div class="failure" role="alert"><span class="codicon codicon-error"></span> ${this.failure}</div>`;
    const h = this.header;
    if (!h) return html`<p class="empty">Reading the trajectory…${this.progress()}</p>`;
    return html`
      <header class="traj-header">
        <h1>${h.title}</h1>
        <div class="meta">
          <span>${h.format}</span>
          ${h.model ? html`<span>· ${h.model}</span>` : nothing}
          ${h.exitStatus ? html`<span>· exit: ${h.exitStatus}</span>` : nothing}
          <span>· ${this.rows.length} steps</span>
          ${
            h.choices.length > 1
              ? html`<select
                  class="choose"
                  aria-label="Trajectory in this file"
                  @change=${(e: Event) => channel.post({ type: 'choose', trajectory: Number((e.target as HTMLSelectElement).value) })}
                >
                  ${h.choices.map((c, k) => html`<option value=${k} ?selected=${k === h.chosen}>${c}</option>`)}
                </select>`
              : nothing
          }
        </div>
        <div class="actions">
          ${h.hasSubmission ? html`<vscode-button secondary icon="git-pull-request" @click=${() => this.act('submission')}>Submission</vscode-button>` : nothing}
          ${h.chainStep?.hasGold ? html`<vscode-button secondary icon="diff" @click=${() => this.act('submissionVsGold')}>Submission ↔ Gold</vscode-button>` : nothing}
          ${h.chainStep?.hasTestPatch ? html`<vscode-button secondary icon="beaker" @click=${() => this.act('testPatch')}>Test Patch</vscode-button>` : nothing}
          ${h.chainStep ? html`<span class="evaluation">Chain step ${h.chainStep.order}: ${h.chainStep.evaluation ?? 'not evaluated yet'}</span>` : nothing}
        </div>
        ${this.progress()}
        ${
          this.problems.length
            ? html`<ul class="problems" role="alert">
                ${this.problems.map((p) => html`<li class=${p.severity}><span class="codicon codicon-${p.severity === 'error' ? 'error' : 'warning'}"></span> ${p.text}</li>`)}
              </ul>`
            : nothing
        }
      </header>
      <div class="panes">
        <section class="list-pane">
          <div class="tools">
            <input
              class="search"
              type="search"
              placeholder="Search steps (/)"
              aria-label="Search steps"
              .value=${this.query}
              @input=${(e: Event) => this.onSearch((e.target as HTMLInputElement).value)}
            />
            <div class="kinds" role="group" aria-label="Filter by action kind">
              ${this.kindsPresent().map(
                (k) =>
                  html`<button
                    class="kind ${this.filter.includes(k) ? 'on' : ''}"
                    title="Show only ${k} steps"
                    aria-pressed=${this.filter.includes(k)}
                    @click=${() => this.toggleKind(k)}
                  >
                    <span class="codicon codicon-${KIND_ICONS[k]}"></span>${k}
                  </button>`,
              )}
            </div>
          </div>
          ${this.list()}
        </section>
        <section class="detail-pane">${this.detailView()}</section>
      </div>
    `;
  }

  private progress(): unknown {
    if (!this.loading) return nothing;
    const pct = Math.floor((100 * this.loading.bytesRead) / this.loading.totalBytes);
    return html`<div class="progress" role="progressbar" aria-valuenow=${pct} aria-valuemin="0" aria-valuemax="100">
      <div class="bar" ${cssProps({ width: `${pct}%` })}></div>
      <span>Reading ${mb(this.loading.bytesRead)} of ${mb(this.loading.totalBytes)} MB (${pct}%)</span>
    </div>`;
  }

  private kindsPresent(): ActionKind[] {
    return [...new Set(this.rows.map((r) => r.kind))];
  }

  private list(): unknown {
    const rows = this.visibleRows();
    const first = Math.max(0, Math.floor(this.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(rows.length, Math.ceil((this.scrollTop + this.viewport) / ROW_HEIGHT) + OVERSCAN);
    return html`<div
      class="step-list"
      role="listbox"
      tabindex="0"
      aria-label="Steps"
      aria-activedescendant=${this.selected !== undefined ? `step-${this.selected}` : nothing}
      @scroll=${(e: Event) => (this.scrollTop = (e.target as HTMLElement).scrollTop)}
    >
      <div class="spacer" ${cssProps({ height: `${rows.length * ROW_HEIGHT}px` })}>
        ${rows.slice(first, last).map(
          (r, k) =>
            html`<div
              id="step-${r.index}"
              class="row ${r.index === this.selected ? 'selected' : ''}"
              role="option"
              aria-selected=${r.index === this.selected}
              ${cssProps({ top: `${(first + k) * ROW_HEIGHT}px` })}
              title=${[r.summary, ...r.files].join('\n')}
              @click=${() => this.select(r.index, true)}
            >
              <span class="index">${r.index}</span>
              <span class="codicon codicon-${KIND_ICONS[r.kind]} kind-${r.kind}" aria-label=${r.kind}></span>
              <span class="summary">${r.summary}</span>
              ${r.exitCode !== null ? html`<span class="exit ${r.exitCode === 0 ? 'ok' : 'bad'}">exit ${r.exitCode}</span>` : nothing}
            </div>`,
        )}
      </div>
      ${rows.length ? nothing : html`<p class="empty">${this.rows.length ? 'No step matches.' : 'No steps yet.'}</p>`}
    </div>`;
  }

  private detailView(): unknown {
    const d = this.detail;
    if (this.selected === undefined)
      return html`<p class="empty">Select a step (j/k to move, Home/End for first/last).</p>`;
    if (!d) return html`<p class="empty">Loading step ${this.selected}…</p>`;
    return html`
      <h2>
        <span class="codicon codicon-${KIND_ICONS[d.kind]}"></span> Step ${d.index} · ${d.kind}
        ${d.exitCode !== null ? html`<span class="exit ${d.exitCode === 0 ? 'ok' : 'bad'}">exit ${d.exitCode}</span>` : nothing}
        ${d.executionTimeSec !== null ? html`<span class="muted">${d.executionTimeSec.toFixed(1)} s</span>` : nothing}
      </h2>
      <p class="muted">
        ${d.kindReason}${d.origin ? ` · ${d.origin}` : ''}${d.patchNote ? ` · patch so far: ${d.patchNote}` : ''}
      </p>
      ${
        d.files.length
          ? html`<ul class="files">
              ${d.files.map(
                (f) =>
                  html`<li>
                    <span
                      class="codicon codicon-${f.access === 'view' ? 'eye' : f.access === 'run' ? 'terminal' : 'edit'}"
                    ></span>
                    <span class="path">${f.workspacePath ?? f.path}</span>
                    <span class="muted"
                      >${f.access}${f.ranges.length ? ` ${f.ranges.map((r) => (r.start === r.end ? r.start : `${r.start}-${r.end}`)).join(', ')}` : ''}</span
                    >
                    ${f.workspacePath ? html`<vscode-button secondary icon="go-to-file" @click=${() => this.act('openFile', f.path)}>Open</vscode-button>` : nothing}
                    ${
                      f.access !== 'run'
                        ? html`<vscode-button
                              secondary
                              icon="history"
                              @click=${() => this.act('workspaceAtStep', f.path)}
                              >Workspace at this step</vscode-button
                            >
                            <vscode-button secondary icon="diff" @click=${() => this.act('diffWithPrevious', f.path)}
                              >Diff with previous step</vscode-button
                            >`
                        : nothing
                    }
                  </li>`,
              )}
            </ul>`
          : nothing
      }
      ${
        d.thought.trim()
          ? html`<h3>Thought</h3>
              <div class="thought">${d.thought}</div>`
          : nothing
      }
      <h3>Action</h3>
      ${code(d.action)}
      <h3>Observation</h3>
      ${d.observation ? code(d.observation) : html`<p class="muted">(no output)</p>`}
    `;
  }
}

function code(text: string): unknown {
  return html`<pre
    class="code"
  ><code>${highlight(text).map((t) => (t.cls === 'plain' ? t.text : html`<span class="tok-${t.cls}">${t.text}</span>`))}</code></pre>`;
}

function mb(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

export function mountTrajectoryView(root: HTMLElement): void {
  if (!customElements.get('chainlens-trajectory')) customElements.define('chainlens-trajectory', TrajectoryView);
  root.replaceChildren(document.createElement('chainlens-trajectory'));
}
