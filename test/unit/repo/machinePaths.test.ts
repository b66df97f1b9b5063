// No machine paths in the repository: a path that exists only on the machine a file was written on
// (a checkout, a home directory, a temporary folder) means nothing to the next reader, and leaks
// how that machine is laid out. Paths inside containers and example data are fine, but each is
// allowed here by name, with the reason, so a new one is a decision and not an accident.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..', '..', '..');
const SELF = 'test/unit/repo/machinePaths.test.ts';

/** Where a path starts: not in the middle of a word, a file name or another path. */
const START = String.raw`(?<![\w.~/-])`;
const MACHINE_PATHS: { what: string; pattern: RegExp }[] = [
  // This checkout's own location and the folder holding it (where sibling checkouts and shared
  // material sit), whatever machine runs the test; '/' alone is no machine path, and a clone in
  // the temporary folder leaves that folder to the temporary-folder rule below (with its allowances).
  ...[root, dirname(root)]
    .filter((dir) => dirname(dir) !== dir && dir !== '/tmp' && dir !== tmpdir())
    .map((dir) => ({
      what: `this checkout's folder or a sibling (${basename(dir)})`,
      pattern: new RegExp(`${START}${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[\\w.-]*`, 'g'),
    })),
  { what: 'a home directory', pattern: new RegExp(`${START}/(?:home|Users)/[\\w.-]+`, 'g') },
  { what: "root's home directory", pattern: new RegExp(`${START}/root/[\\w.-]*`, 'g') },
  { what: 'a temporary file or folder', pattern: new RegExp(`${START}/tmp/[\\w.-]+`, 'g') },
  { what: 'a macOS temporary folder', pattern: new RegExp(`${START}/(?:private/)?var/folders/[\\w.-]+`, 'g') },
  { what: 'a Windows user folder', pattern: /\b[A-Za-z]:\\+(?:Users|Documents and Settings)\\+[\w.-]+/g },
];

/** file → the exact paths it may hold, and why they are no machine's. */
const ALLOWED: { file: string; paths: string[]; why: string }[] = [
  {
    file: 'scripts/make-log-corpus.sh',
    paths: ['/tmp/patch.diff', '/tmp/test_output.txt', '/tmp/rc', '/tmp/truth.json'],
    why: 'files inside the corpus container (docker exec)',
  },
  {
    file: 'scripts/make-multilingual-corpus.sh',
    paths: ['/tmp/patch.diff', '/tmp/test_output.txt'],
    why: 'files inside the corpus container (docker exec)',
  },
  {
    file: 'scripts/provision-docker.sh',
    paths: ['/tmp/chainlens-rootfs.XXXXXX', '/tmp/chainlens-debootstrap.log'],
    why: "a mktemp template and the script's own log, the same on every machine",
  },
  {
    file: 'scripts/provision-code-server.sh',
    paths: ['/tmp/npm.lock'],
    why: 'a lock that serialises npm installs of provisioning runs started at once',
  },
  {
    file: 'test/fixtures/trajectories/sweagent_demonstration_function_calling_simple.traj',
    paths: ['/Users/fuchur'],
    why: "a real SWE-agent demonstration file, kept as published: its author's machine, not ours",
  },
  {
    file: 'src/infra/docker/repoPath.ts',
    paths: ['/root/'],
    why: 'where a repository may sit inside an image',
  },
  {
    file: 'src/infra/run/runLock.ts',
    paths: ['/home/me'],
    why: 'an example in a comment',
  },
  {
    file: 'src/core/evaluation/grading/parsers/javascript/quarto.ts',
    paths: ['/tmp/0', '/tmp/1'],
    why: "paths quarto's test log prints, renumbered as the harness does",
  },
  {
    file: 'test/fixtures/logs/multilingual/synthetic/quarto-deno.log',
    paths: ['/tmp/abc123.qmd', '/tmp/abc123'],
    why: 'paths a quarto test log prints',
  },
  {
    file: 'test/fixtures/logs/multilingual/truth.json',
    paths: ['/tmp/0', '/tmp/1'],
    why: "the harness parser's renumbered quarto paths",
  },
  {
    file: 'src/core/trajectories/workspace/replay.ts',
    paths: ['/tmp/x.py'],
    why: "an example of a path in an agent's container",
  },
  {
    file: 'src/vscode/trajectories/pathMapping.ts',
    paths: ['/tmp/x'],
    why: "an example of a path in an agent's container",
  },
  {
    file: 'test/unit/vscode/trajectories/pathMapping.test.ts',
    paths: ['/tmp/scratch.py', '/home/agent'],
    why: "paths in an agent's container, mapped to the workspace",
  },
  {
    file: 'test/unit/formats/trajectoryPredictions.test.ts',
    paths: ['/tmp/run.traj.json'],
    why: 'a file name given to a parser, never opened',
  },
  {
    file: 'test/unit/cli/badInput.test.ts',
    paths: ['/tmp/pwned'],
    why: 'the payload of a hostile patch, never run',
  },
  {
    file: 'test/unit/evaluation/grading/parsers.test.ts',
    paths: ['/home/u'],
    why: 'part of a test id in a log',
  },
  {
    file: 'test/e2e/harness/README.md',
    paths: ['/tmp/chain.json'],
    why: 'a file name in an example test',
  },
  {
    file: 'test/fixtures/formats/swebench_lite_5_instances.json',
    paths: ['/tmp/pycs-', '/tmp/pycs-d', '/tmp/pycs'],
    why: 'SWE-bench Lite instances, copied unmodified (their patches and problem statements)',
  },
  {
    file: 'test/fixtures/formats/minisweagent_legacy_list_format.traj.json',
    paths: ['/Users/fuchur'],
    why: 'a mini-swe-agent trajectory, copied unmodified',
  },
];

/** Tracked files, and new ones not yet added (ignored files left out), as git lists them. */
function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter((f) => f !== ''))].sort();
}

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/** Every machine path in `text`, as `what: path`. */
export function machinePathsIn(text: string): { what: string; path: string }[] {
  return MACHINE_PATHS.flatMap(({ what, pattern }) => [...text.matchAll(pattern)].map((m) => ({ what, path: m[0] })));
}

test('no tracked file holds a machine path (checkout, home, temporary folder) other than those allowed by name', () => {
  const problems: string[] = [];
  const allowedSeen = new Set<string>();
  for (const file of repositoryFiles()) {
    const full = join(root, file);
    // This file names the paths it looks for; a file deleted in the work tree has nothing to read.
    if (file === SELF || !existsSync(full)) continue;
    const bytes = readFileSync(full);
    if (isBinary(bytes)) continue;
    const allowed = new Set(ALLOWED.filter((a) => a.file === file).flatMap((a) => a.paths));
    const text = bytes.toString('utf8');
    for (const { what, path } of machinePathsIn(text)) {
      if (allowed.has(path)) {
        allowedSeen.add(`${file}\0${path}`);
        continue;
      }
      const line = text.slice(0, text.indexOf(path)).split('\n').length;
      problems.push(`${file}:${line}: ${path} (${what})`);
    }
  }
  assert.deepEqual([...new Set(problems)], [], 'machine paths (write them relative, or allow them in this test):');
  const stale = ALLOWED.flatMap((a) =>
    a.paths.filter((p) => !allowedSeen.has(`${a.file}\0${p}`)).map((p) => `${a.file}: ${p}`),
  );
  assert.deepEqual(stale, [], 'allowed paths no file holds any more (remove them from ALLOWED)');
});

test('the patterns catch the machine paths they are for, and leave container and relative paths alone', () => {
  const found = (text: string) => machinePathsIn(text).map((m) => m.path);
  assert.deepEqual(found(`see ${dirname(root)}/shared/DESIGN.md`), [`${dirname(root)}/shared`]);
  assert.deepEqual(found('cd /home/alice/src && ls /root/.cache'), ['/home/alice', '/root/.cache']);
  assert.deepEqual(found('flock /tmp/git.lock git commit'), ['/tmp/git.lock']);
  assert.deepEqual(found('C:\\Users\\bob\\repo'), ['C:\\Users\\bob']);
  assert.deepEqual(found('/Users/carol/x and /private/var/folders/ab/T'), ['/Users/carol', '/private/var/folders/ab']);
  assert.deepEqual(found('/testbed/src, docs/root/x, /opt/app, src/tmp/a, ~/root/x, /home/*/*/'), []);
});
