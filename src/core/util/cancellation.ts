/**
 * Minimal cancellation and disposal contracts so core and infra never need 'vscode'
 * (the Container Tools pattern). vscode.CancellationToken satisfies CancellationTokenLike.
 */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): DisposableLike;
}

export interface DisposableLike {
  dispose(): void;
}

/** Bridges a CancellationTokenLike to an AbortSignal (what dockerode, fetch and child_process take). */
export function toAbortSignal(token: CancellationTokenLike | undefined): AbortSignal | undefined {
  if (!token) return undefined;
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
