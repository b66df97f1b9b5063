// A CLI command ends when it has said its last word: nothing it started (a fallback timer, a
// socket to the engine, a child process) may keep the process alive after the result is printed.
// The CLI as built for users (dist/cli.js and its per-command chunks; the container level of
// `npm test` builds it first) runs `eval` against the real engine with a preloaded probe
// (helpers/exitProbe.mjs) that lists, one turn of the event loop after the last write to
// stdout/stderr, the resources still holding the process open; only the standard streams
// themselves may be left.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeTinyChain, type TinyChain } from '../helpers/tinyChain';

const PROBE = resolve(__dirname, '../helpers/exitProbe.mjs');
const BIN = resolve(__dirname, '../../dist/cli.js');
let tiny: TinyChain;

before(() => {
  assert.ok(existsSync(BIN), 'dist/cli.js is built (npm run build)');
  tiny = makeTinyChain();
});
after(() => tiny.cleanup());

interface ProbeRecord {
  baseline: string[];
  afterLastWrite: { writes: number; resources: string[] } | null;
  writes: number;
  exitCode: number;
}

function runProbed(
  args: string[],
  probeFile: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', PROBE, BIN, ...args], {
      env: { ...process.env, CHAINLENS_EXIT_PROBE: probeFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** What `after` holds beyond `baseline` (both lists of resource types, as multisets). */
function beyond(baseline: string[], after: string[]): string[] {
  const left = [...baseline];
  return after.filter((r) => {
    const i = left.indexOf(r);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

for (const repoPath of ['detected', 'copied in'] as const) {
  test(`eval (repository ${repoPath}) leaves no timer, socket or child behind once its result is printed`, async () => {
    const probeFile = join(tiny.root, `probe-${repoPath.replace(' ', '-')}.json`);
    const r = await runProbed(
      [
        'eval',
        tiny.chainFile,
        '--repo',
        tiny.repo,
        '--dir',
        join(tiny.root, `work-${repoPath.replace(' ', '-')}`),
        '--mode',
        'oracle',
        '--predictions',
        'gold',
        '--steps',
        '1',
        ...(repoPath === 'copied in' ? ['--repo-path-in-image', 'none'] : []),
      ],
      probeFile,
    );
    assert.equal(r.code, 0, r.stderr);
    // Graded (the tiny chain's tests do not import from the copied repository; the verdict is not the point).
    assert.match(r.stdout, /resolved [01]\/1 step\(s\)/);
    // --steps 1 replays step 1 only: the later steps are not needed to evaluate it.
    assert.match(r.stderr, /step 1 submitted/);
    assert.doesNotMatch(r.stderr, /step [23] submitted/);
    const probe = JSON.parse(readFileSync(probeFile, 'utf8')) as ProbeRecord;
    assert.ok(probe.afterLastWrite, 'the probe saw the last write');
    assert.equal(probe.afterLastWrite.writes, probe.writes, 'nothing was written after the recorded turn');
    assert.deepEqual(
      beyond(probe.baseline, probe.afterLastWrite.resources),
      [],
      `after its last output the process was still held by: ${probe.afterLastWrite.resources.join(', ')}`,
    );
  });
}
