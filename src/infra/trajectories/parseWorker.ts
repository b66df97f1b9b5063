// Worker-thread entry: streams and parses one trajectory file off the caller's thread, so a
// 100 MB file never blocks VS Code's extension host. Bundled as dist/trajectory-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import type { Trajectory, TrajectoryStep } from '../../protocol/trajectory';
import { streamTrajectoryFile } from './streamTrajectory';
import { STEPS_PER_MESSAGE, type WorkerMessage, type WorkerRequest } from './workerProtocol';

/**
 * Steps as plain data: their derived fields are accessors (computed on first read), which
 * structured clone serialises by a much slower path than data properties.
 */
function plain(steps: TrajectoryStep[]): TrajectoryStep[] {
  return steps.map((s) => ({ ...s }));
}

const port = parentPort;
if (port) {
  const request = workerData as WorkerRequest;
  const send = (m: WorkerMessage) => port.postMessage(m);
  let lastProgress = 0;
  const sendTrajectory = (t: Trajectory) => {
    const { steps, ...header } = t;
    send({ type: 'trajectory', header, stepCount: steps.length });
    for (let i = 0; i < steps.length; i += STEPS_PER_MESSAGE)
      send({ type: 'steps', steps: plain(steps.slice(i, i + STEPS_PER_MESSAGE)) });
  };
  streamTrajectoryFile(
    request.path,
    {
      progress(bytesRead, totalBytes) {
        const now = Date.now();
        if (now - lastProgress < 50 && bytesRead < totalBytes) return;
        lastProgress = now;
        send({ type: 'progress', bytesRead, totalBytes });
      },
      detected: (detection) => send({ type: 'detected', detection }),
      preview: (trajectory) => send({ type: 'preview', trajectory: { ...trajectory, steps: plain(trajectory.steps) } }),
      trajectory: sendTrajectory,
      problem: (problem) => send({ type: 'problem', problem }),
    },
    { previewSteps: request.previewSteps, keepPartialTail: request.keepPartialTail },
  ).then(
    (r) =>
      send({
        type: 'done',
        detection: r.detection,
        totalBytes: r.totalBytes,
        completeBytes: r.completeBytes,
        lines: r.lines,
      }),
    (e: unknown) =>
      send({
        type: 'error',
        message: e instanceof Error ? e.message : String(e),
        code: (e as NodeJS.ErrnoException)?.code,
      }),
  );
}
