// Preloaded (`node --import`) into a CLI process under test. One turn of the event loop after
// each write to stdout or stderr it records which resources still keep the process alive; the
// record taken after the last write is what the process was left with once the command had said
// its last word. A process with nothing left exits at once; anything listed (a pending timer, an
// open socket) holds it open. The record goes to the file CHAINLENS_EXIT_PROBE names, at exit.
import { writeFileSync } from 'node:fs';

const out = process.env.CHAINLENS_EXIT_PROBE;
let writes = 0;
let afterLastWrite = null;
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = (...args) => {
    const n = ++writes;
    setImmediate(() => {
      if (n === writes) afterLastWrite = { writes: n, resources: process.getActiveResourcesInfo() };
    });
    return write(...args);
  };
}
// What the process holds before the command starts: the standard streams the probe just opened.
const baseline = process.getActiveResourcesInfo();
process.on('exit', (code) => {
  if (out) writeFileSync(out, JSON.stringify({ baseline, afterLastWrite, writes, exitCode: code }));
});
