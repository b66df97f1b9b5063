/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS: the extension host loads extensions with require() */
// Runs API-level test suites inside the extension host, on request of the e2e harness
// (test/e2e/harness/exthost/run.ts). Contract, all under $CHAINLENS_E2E_EXTHOST_DIR:
//   ready-<pid>.json        written once this extension host has finished starting up
//   requests/<pid>/<id>.json  {bundle, results, grep?, timeoutMs}: the harness asks this host
//   <results>               the report, written atomically (temp file + rename)
// Requests are addressed to one extension-host pid because code-server keeps an old extension
// host alive for a while after its browser goes away; only the host the test is looking at runs.
// Without the variable this extension does nothing, so it is inert outside the harness.
const fs = require('node:fs');
const path = require('node:path');

function writeAtomically(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(data, null, 2));
  fs.renameSync(tmp, file);
}

function errorInfo(err) {
  return err instanceof Error ? { message: err.message, stack: err.stack } : { message: String(err) };
}

async function runRequest(requestFile) {
  const request = JSON.parse(fs.readFileSync(requestFile, 'utf8'));
  const started = Date.now();
  let report;
  try {
    delete require.cache[require.resolve(request.bundle)];
    const suiteModule = require(request.bundle);
    if (typeof suiteModule.run !== 'function') throw new Error(`${request.bundle} exports no run()`);
    report = await suiteModule.run({ grep: request.grep, defaultTimeoutMs: request.timeoutMs });
  } catch (err) {
    report = { passed: 0, failed: 1, durationMs: Date.now() - started, tests: [], loadError: errorInfo(err) };
  }
  writeAtomically(request.results, { ...report, exthostPid: process.pid });
}

function activate(context) {
  const dir = process.env.CHAINLENS_E2E_EXTHOST_DIR;
  if (!dir) return;
  const inbox = path.join(dir, 'requests', String(process.pid));
  fs.mkdirSync(inbox, { recursive: true });
  let busy = false;
  const poll = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const name of fs
        .readdirSync(inbox)
        .filter((n) => n.endsWith('.json'))
        .sort()) {
        const taken = path.join(inbox, `${name}.taken`);
        fs.renameSync(path.join(inbox, name), taken); // claim it, so a request runs once
        await runRequest(taken);
      }
    } catch (err) {
      console.error('[chainlens e2e runner]', err);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(poll, 150);
  context.subscriptions.push({ dispose: () => clearInterval(timer) });
  writeAtomically(path.join(dir, `ready-${process.pid}.json`), { pid: process.pid, at: new Date().toISOString() });
}

function deactivate() {}

module.exports = { activate, deactivate };
