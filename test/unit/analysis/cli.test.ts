// `chainlens analyze` against a real git repository holding the pydicom file at its base commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { StepAnalysisSchema } from '../../../src/protocol/analysis';

const fixtures = join(__dirname, '../../fixtures/patches/pydicom-1458');

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'analyze-'));
  mkdirSync(join(dir, 'pydicom/pixel_data_handlers'), { recursive: true });
  copyFileSync(join(fixtures, 'numpy_handler.py'), join(dir, 'pydicom/pixel_data_handlers/numpy_handler.py'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'base');
  // A later commit changes the file, so only --base gives the right pre-image.
  writeFileSync(join(dir, 'pydicom/pixel_data_handlers/numpy_handler.py'), 'changed later\n');
  git('commit', '-qam', 'later');
  return dir;
}

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => (out += t + '\n'), err: (t) => (err += t + '\n'), cwd: fixtures });
  return { code, out, err };
}

test('analyze reads pre-images with git at --base and reports the pydicom drift', async () => {
  const dir = repo();
  const r = await cli(['analyze', '--patch', 'agent.diff', '--gold', 'gold.diff', '--repo', dir, '--base', 'HEAD~1']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /files: {3}Jaccard 1\.00/);
  assert.match(r.out, /\* INPUT GATING \[IEC\] {2}pydicom\/pixel_data_handlers\/numpy_handler\.py:226 get_pixeldata/);
  assert.match(r.out, /gold {3}305: if not hasattr\(ds, 'PlanarConfiguration'\):/);
  const j = await cli([
    'analyze',
    '--patch',
    'agent.diff',
    '--gold',
    'gold.diff',
    '--repo',
    dir,
    '--base',
    'HEAD~1',
    '--json',
  ]);
  const parsed = StepAnalysisSchema.parse(JSON.parse(j.out));
  assert.equal(parsed.files.jaccard, 1);
});

test('analyze at the wrong revision degrades to file level and says why', async () => {
  const dir = repo();
  const r = await cli(['analyze', '--patch', 'agent.diff', '--gold', 'gold.diff', '--repo', dir]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /file level only: pydicom\/pixel_data_handlers\/numpy_handler\.py \(.*does not apply/);
});

test('analyze: bad revision, missing repo and unreadable patch are errors a person can act on', async () => {
  const dir = repo();
  const badRev = await cli([
    'analyze',
    '--patch',
    'agent.diff',
    '--gold',
    'gold.diff',
    '--repo',
    dir,
    '--base',
    'nope',
  ]);
  assert.equal(badRev.code, 1);
  assert.match(badRev.err, /--base: 'nope' is not a commit/);
  const noPatch = await cli(['analyze', '--patch', 'missing.diff', '--gold', 'gold.diff', '--repo', dir]);
  assert.match(noPatch.err, /--patch .*missing\.diff does not exist/);
  const noRepo = await cli([
    'analyze',
    '--patch',
    'agent.diff',
    '--gold',
    'gold.diff',
    '--repo',
    mkdtempSync(join(tmpdir(), 'norepo-')),
  ]);
  assert.match(noRepo.err, /not a git repository/);
  const usage = await cli(['analyze', '--patch', 'agent.diff']);
  assert.equal(usage.code, 2);
});

test('analyze: a --repo folder that does not exist is named in the error', async () => {
  const r = await cli(['analyze', '--patch', 'agent.diff', '--gold', 'gold.diff', '--repo', '/nonexistent/repo']);
  assert.equal(r.code, 1);
  assert.match(r.err, /--repo: \/nonexistent\/repo: cannot run git there/);
});
