// Two trajectories side by side, aligned by what each step did (the extension sends the pairs),
// a gap facing a step only one run took, with the files each one touched; the files only one
// side touched are marked, since that is where two runs diverge.
import { LitElement, html, nothing } from 'lit';
import type {
  CompareSide,
  CompareViewState,
  FromCompareView,
  ToCompareView,
} from '../../../src/protocol/trajectoryView';
import { viewChannel } from '../vscodeApi';
import { KIND_ICONS } from './kindIcons';

const channel = viewChannel<FromCompareView, CompareViewState>();

class TrajectoryCompareView extends LitElement {
  static override properties = {
    left: { state: true },
    right: { state: true },
    aligned: { state: true },
    failure: { state: true },
  };
  declare left: CompareSide | undefined;
  declare right: CompareSide | undefined;
  declare aligned: (readonly [number | null, number | null])[];
  declare failure: string | undefined;

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

  private readonly onMessage = (event: MessageEvent<ToCompareView>): void => {
    const m = event.data;
    if (m?.type === 'compare') {
      this.left = m.left;
      this.right = m.right;
      this.aligned = m.aligned;
      channel.saveState({ left: m.left.file, right: m.right.file });
    } else if (m?.type === 'failed') this.failure = m.message;
  };

  override render(): unknown {
    if (this.failure)
      return html`<div class="failure" role="alert"><span class="codicon codicon-error"></span> ${this.failure}</div>`;
    const [l, r] = [this.left, this.right];
    if (!l || !r) return html`<p class="empty">Reading both trajectories…</p>`;
    const matched = this.aligned.filter(([a, b]) => a !== null && b !== null).length;
    const onlyL = new Set(l.files.filter((f) => !r.files.includes(f)));
    const onlyR = new Set(r.files.filter((f) => !l.files.includes(f)));
    return html`
      <p class="compare-title">
        Aligned by action: ${l.rows.length} and ${r.rows.length} steps, ${matched} done by both,
        ${[...onlyL, ...onlyR].length} files touched by one side only
      </p>
      <table class="compare">
        <thead>
          <tr>
            <th></th>
            ${[l, r].map(
              (s) =>
                html`<th>
                  <h2>${s.title}</h2>
                  <div class="meta">
                    ${s.model ?? 'model unknown'} · ${s.rows.length}
                    steps${s.exitStatus ? ` · exit: ${s.exitStatus}` : ''}
                  </div>
                </th>`,
            )}
          </tr>
          <tr class="files-row">
            <th>files</th>
            ${[
              [l, onlyL],
              [r, onlyR],
            ].map(
              ([s, only]) =>
                html`<td>
                  ${(s as CompareSide).files.map((f) => html`<span class="file-chip ${(only as Set<string>).has(f) ? 'only' : ''}" title=${(only as Set<string>).has(f) ? 'only this side touched it' : 'both touched it'}>${f}</span>`)}
                </td>`,
            )}
          </tr>
          ${
            l.problems.length || r.problems.length
              ? html`<tr>
                  <th></th>
                  ${[l, r].map((s) => html`<td class="problems">${s.problems.map((p) => html`<div>${p}</div>`)}</td>`)}
                </tr>`
              : nothing
          }
        </thead>
        <tbody>
          ${this.aligned.map(
            ([a, b]) =>
              html`<tr class=${a === null || b === null ? 'unmatched' : 'matched'}>
                <td class="index">${a ?? '–'} · ${b ?? '–'}</td>
                ${[a === null ? undefined : l.rows[a], b === null ? undefined : r.rows[b]].map((row) => (row ? html`<td class="cell kind-${row.kind}"><span class="codicon codicon-${KIND_ICONS[row.kind]}"></span> ${row.summary}${row.exitCode !== null ? html` <span class="exit ${row.exitCode === 0 ? 'ok' : 'bad'}">exit ${row.exitCode}</span>` : nothing}</td>` : html`<td class="cell none" title="no such step in this run"></td>`))}
              </tr>`,
          )}
        </tbody>
      </table>
    `;
  }
}

export function mountTrajectoryCompareView(root: HTMLElement): void {
  if (!customElements.get('chainlens-trajectory-compare'))
    customElements.define('chainlens-trajectory-compare', TrajectoryCompareView);
  root.replaceChildren(document.createElement('chainlens-trajectory-compare'));
}
