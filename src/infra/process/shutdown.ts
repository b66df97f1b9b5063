// The process is shutting down: SIGINT, SIGTERM or SIGHUP reached ChainLens itself. Everything
// that reacts to it hangs off one AbortSignal, aborted before any clean-up starts, so work the
// clean-up cuts short (a container removed under a running evaluation) is known to be cut short
// by us and never turns into a result: an interrupted step has no record (docs/run-state.md,
// "Signals"; docs/reference/containers.md, "While the process lives").

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const controller = new AbortController();
const cleanups = new Set<() => Promise<unknown>>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  for (const name of SIGNALS) {
    const handler = () => {
      // Listeners of the abort (evaluations marking themselves cancelled) run here, synchronously,
      // before the first container is removed.
      if (!controller.signal.aborted) controller.abort(name);
      const alone = process.listenerCount(name) === 1;
      void Promise.allSettled([...cleanups].map((c) => c())).finally(() => {
        // A command with its own handler (eval and batch on Ctrl-C) ends by itself; otherwise the
        // signal is raised again so the process ends as the signal meant.
        if (!alone) return;
        process.removeListener(name, handler);
        process.kill(process.pid, name);
      });
    };
    process.on(name, handler);
  }
}

/** Aborted, with the signal's name as reason, once a shutdown signal reaches this process. */
export function shutdownSignal(): AbortSignal {
  install();
  return controller.signal;
}

/** Whether a shutdown signal has reached this process (an interrupted operation records nothing). */
export function shuttingDown(): boolean {
  return controller.signal.aborted;
}

/** The caller's signal, also aborted when the process shuts down. */
export function orShutdown(signal: AbortSignal | undefined): AbortSignal {
  const shutdown = shutdownSignal();
  return signal ? AbortSignal.any([signal, shutdown]) : shutdown;
}

/** Runs `cleanup` when a shutdown signal arrives (after the abort); it should settle within seconds. */
export function onShutdown(cleanup: () => Promise<unknown>): void {
  install();
  cleanups.add(cleanup);
}
