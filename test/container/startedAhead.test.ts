// A step evaluated on its own (the editor's Run Tests, a batch's step, a study's submit, an agent's
// run_tests) starts its container while the state under test is read and the image is looked at,
// as `chainlens eval` does for its steps (docs/reference/containers.md, "Started ahead").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { DEMO_CHAIN, demoRepo } from '../helpers/demoRepo';
import { evaluateStep } from '../../src/app/evaluation';

test('a step evaluated on its own: its container is created before the image is probed for the repository, and is the one the tests ran in', async () => {
  const work = mkdtempSync(join(tmpdir(), 'chainlens-ahead-'));
  const dir = join(work, 'run');
  assert.equal((await runCli(['checkout', DEMO_CHAIN, '--repo', demoRepo(), '--dir', dir])).code, 0);
  // A new image id (same files): no answer of an earlier probe is remembered for it.
  const tag = `chainlens-test/started-ahead:${process.pid}`;
  writeFileSync(
    join(work, 'Dockerfile'),
    `FROM chainlens/base:bookworm\nLABEL chainlens.test=${process.pid}-${Date.now()}\n`,
  );
  execFileSync('docker', ['build', '-q', '-t', tag, work], { stdio: 'pipe' });
  try {
    const since = Math.floor(Date.now() / 1000) - 1;
    const result = await evaluateStep({ dir, source: 'worktree', image: tag });
    assert.equal(result.status, 'unresolved', result.error ?? '');
    const created = execFileSync(
      'docker',
      [
        'events',
        '--since',
        String(since),
        '--until',
        String(Math.ceil(Date.now() / 1000) + 1),
        '--filter',
        `image=${tag}`,
        '--filter',
        'event=create',
        '--format',
        '{{.Actor.Attributes.name}}',
      ],
      { encoding: 'utf8' },
    )
      .split('\n')
      .filter(Boolean);
    // Two containers: the step's (named chainlens-<run>-…) first, then the probe's; no second one for the step.
    assert.equal(created.length, 2, created.join(', '));
    assert.match(created[0], /^chainlens-/);
    assert.doesNotMatch(created[1], /^chainlens-/);
  } finally {
    execFileSync('docker', ['rmi', '-f', tag], { stdio: 'pipe' });
  }
});
