// Preloaded (`node --import`) into a CLI process under test. One turn of the event loop after
// each write to stdout or stderr it records which resources still keep the process alive; the
// record taken after the last write is what the process was left with once the command had said
// its last word. A process with nothing left exits at once; anything listed (a pending timer, an
// open socket) holds it open. The record goes to the file CHAINLENS_EXIT_PROBE names, at exit.
import fs, { writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const out = process.env.CHAINLENS_EXIT_PROBE;
let writes = 0;
let afterLastWrite = null;
const wrote = () => {
  const n = ++writes;
  setImmediate(() => {
    if (n === writes) afterLastWrite = { writes: n, resources: process.getActiveResourcesInfo() };
  });
};
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = (...args) => {
    wrote();
    return write(...args);
  };
}
// The CLI writes its lines straight to file descriptors 1 and 2 (src/cli/stdio.ts): those writes
// count too. syncBuiltinESMExports makes `import { writeSync } from 'node:fs'` see the wrapper.
const writeSync = fs.writeSync;
fs.writeSync = (fd, ...args) => {
  if (fd === 1 || fd === 2) wrote();
  return writeSync(fd, ...args);
};
syncBuiltinESMExports();
// What the process holds before the command starts: the standard streams the probe just opened.
const baseline = process.getActiveResourcesInfo();
process.on('exit', (code) => {
  if (out) writeFileSync(out, JSON.stringify({ baseline, afterLastWrite, writes, exitCode: code }));
});
