// Failure injection for the crash and concurrency tests, read once from the environment. A real
// process cannot be made to die (or stall) between two particular writes any other way.
//
//   CHAINLENS_FAULT_KILL_AT=<point>[:<n>]   SIGKILL this process the n-th time (default first) it
//                                           reaches <point>.
//   CHAINLENS_FAULT_PAUSE_AT=<point>        stop there (every time) until the file
//                                           CHAINLENS_FAULT_RESUME exists: a writer held
//                                           mid-operation, so a test can start a second command
//                                           while the first one surely runs. While it waits, the
//                                           file CHAINLENS_FAULT_RESUME.waiting exists (its pid),
//                                           so the test knows it got there.
//
// Points are named by the engine ('submit:committed', ...), by the run lock ('locked:<operation>'
// once an operation holds it) and by `submit` ('submit:saw-step', once it read the step it submits).
import { existsSync, rmSync, writeFileSync } from 'node:fs';

type FaultPoint = (name: string) => void;

function countdown(spec: string): { point: string; hit(name: string): boolean } {
  const m = /^(.*?)(?::(\d+))?$/.exec(spec)!;
  let remaining = Number(m[2] ?? '1');
  return { point: m[1], hit: (name) => name === m[1] && --remaining === 0 };
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function fromEnv(): FaultPoint | undefined {
  const kill = process.env.CHAINLENS_FAULT_KILL_AT ? countdown(process.env.CHAINLENS_FAULT_KILL_AT) : undefined;
  const pause = process.env.CHAINLENS_FAULT_PAUSE_AT;
  const resume = process.env.CHAINLENS_FAULT_RESUME;
  if (!kill && !pause) return undefined;
  return (name) => {
    if (kill?.hit(name)) process.kill(process.pid, 'SIGKILL');
    if (name === pause && resume) {
      writeFileSync(`${resume}.waiting`, String(process.pid));
      while (!existsSync(resume)) sleepSync(10);
      rmSync(`${resume}.waiting`, { force: true });
    }
  };
}

/** The injected fault for this process, or undefined in normal operation. */
export const injectedFault: FaultPoint | undefined = fromEnv();

export function faultPoint(name: string): void {
  injectedFault?.(name);
}
