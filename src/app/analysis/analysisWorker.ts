// Worker-thread entry: the editor's analysis (tree-sitter parses, outlines, metrics, drift) off
// the extension host's thread, so typing never waits for it. One long-lived worker holds the
// parsers and grammars; requests are answered one at a time, in order. Bundled as
// dist/analysis-worker.js and started by AnalysisThread (analysisThread.ts).
import { parentPort } from 'node:worker_threads';
import { createTreeSitterSymbolIndex } from '../symbols/symbolIndex';
import { answer } from './analysisRequests';
import type { AnalysisReply, AnalysisRequest } from './analysisWorkerProtocol';

const port = parentPort;
if (port) {
  const symbols = createTreeSitterSymbolIndex();
  const send = (m: AnalysisReply) => port.postMessage(m);
  let queue = Promise.resolve();
  port.on('message', (m: AnalysisRequest) => {
    queue = queue.then(async () => send(await answer(m, symbols)));
  });
  send({ type: 'ready' });
}
