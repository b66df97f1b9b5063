// The webview side of postMessage/getState, typed per view, and the one lifecycle every view
// follows (src/vscode/webviewHost.ts is the other end): listen, then say `ready`; the extension
// sends nothing before it. acquireVsCodeApi() may be called only once per page, so every view
// goes through this module.

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | undefined;

export interface ViewChannel<Out, State> {
  post(message: Out): void;
  state(): State | undefined;
  saveState(state: State): void;
  /**
   * Listens to the extension's messages, then says `ready` (again after the view is revived,
   * since a hidden webview is torn down). Returns the function that stops listening.
   */
  connect<In>(listener: (event: MessageEvent<In>) => void): () => void;
}

export function viewChannel<Out, State>(): ViewChannel<Out, State> {
  api ??= acquireVsCodeApi();
  const vscode = api;
  return {
    post: (message) => vscode.postMessage(message),
    state: () => (vscode.getState() as State | null) ?? undefined,
    saveState: (state) => vscode.setState(state),
    connect: (listener) => {
      window.addEventListener('message', listener);
      vscode.postMessage({ type: 'ready' });
      return () => window.removeEventListener('message', listener);
    },
  };
}
