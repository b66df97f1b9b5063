// The webview side of postMessage/getState, typed per view. acquireVsCodeApi() may be called
// only once per page, so every view goes through this module.

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
}

export function viewChannel<Out, State>(): ViewChannel<Out, State> {
  api ??= acquireVsCodeApi();
  const vscode = api;
  return {
    post: (message) => vscode.postMessage(message),
    state: () => (vscode.getState() as State | null) ?? undefined,
    saveState: (state) => vscode.setState(state),
  };
}
