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
