// What an evaluation's container run shares with whichever executor runs it (a local container,
// or a Swarm job service): how it ended, and the deadline and cancellation that apply to it.

/** What one container run ended with. */
export interface ContainerRun {
  readonly statusCode: number;
  readonly oomKilled: boolean;
}

/** Shared by the attempts of one evaluation: the deadline and the cancellation apply to all of them. */
export interface RunControl {
  timedOut: boolean;
  cancelled: boolean;
  /** performance.now() value by which the run must have ended. */
  readonly deadline: number;
  readonly signal?: AbortSignal;
}

/** Thrown when the evaluation was cancelled before its container ran. */
export class Cancelled extends Error {}

/** The engine's own message of a dockerode error (its JSON body), else the error's text. */
export function dockerMessage(e: unknown): string {
  if (typeof e === 'object' && e !== null && 'json' in e) {
    const json = (e as { json?: { message?: string } }).json;
    if (json?.message) return json.message;
  }
  return e instanceof Error ? e.message : String(e);
}
