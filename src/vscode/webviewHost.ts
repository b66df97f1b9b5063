// The extension side of every ChainLens webview's lifecycle (webview-ui/src/vscodeApi.ts is the
// other end), written once: the host page (webviewHtml.ts), then connect -> ready -> messages.
// Every message from the webview is checked against the view's zod schema before it is acted
// on; nothing is posted before the view said `ready`, and a hidden view (no retained context)
// is torn down, so it is not ready again until it says so.
import type * as z from 'zod';
import * as vscode from 'vscode';
import { webviewHtml, webviewRoots } from './webviewHtml';

export interface HostedView<Out> {
  /** Posts when the view is ready; dropped otherwise (the view asks again by saying `ready`). */
  post(message: Out): void;
  readonly ready: boolean;
}

export interface HostOptions<In extends { type: string }> {
  readonly extensionUri: vscode.Uri;
  /** The view's name in webview-ui/src/main.ts. */
  readonly view: string;
  readonly title: string;
  /** A stylesheet of media/, and CSS built in code (chart styles, say) inlined under the nonce. */
  readonly stylesheet?: string;
  readonly css?: string;
  readonly schema: z.ZodType<In>;
  /** Where an unknown message is reported. */
  readonly output: vscode.LogOutputChannel;
  /** The view said `ready`: send what it shows. */
  readonly onReady: () => void;
  readonly onMessage?: (message: Exclude<In, { type: 'ready' }>) => void | Promise<void>;
}

/** Hosts a view in `panel`; its subscriptions end with the panel. */
export function hostWebview<In extends { type: string }, Out>(
  panel: vscode.WebviewPanel,
  o: HostOptions<In>,
): HostedView<Out> {
  let ready = false;
  panel.webview.options = { enableScripts: true, localResourceRoots: webviewRoots(o.extensionUri) };
  panel.webview.html = webviewHtml(panel.webview, o.extensionUri, {
    view: o.view,
    title: o.title,
    stylesheet: o.stylesheet,
    css: o.css,
  });
  const subscriptions = [
    panel.webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = o.schema.safeParse(raw);
      if (!parsed.success) {
        o.output.warn(`${o.view} view sent an unknown message: ${JSON.stringify(raw)?.slice(0, 200)}`);
        return;
      }
      const message = parsed.data;
      if (message.type === 'ready') {
        ready = true;
        o.onReady();
      } else void o.onMessage?.(message as Exclude<In, { type: 'ready' }>);
    }),
    panel.onDidChangeViewState(() => {
      if (!panel.visible) ready = false;
    }),
  ];
  panel.onDidDispose(() => {
    for (const s of subscriptions) s.dispose();
  });
  return {
    post: (message) => {
      if (ready) void panel.webview.postMessage(message);
    },
    get ready() {
      return ready;
    },
  };
}
