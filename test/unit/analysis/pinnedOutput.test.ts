// `chainlens analyze` output held byte for byte to digests recorded before the analysis was made
// faster: the text and the JSON of a pair over many files and languages (pinnedRepo.ts). A
// change that means to alter the output records new digests here, on purpose. Last: issue 33's
// metrics (cognitive complexity and Halstead volume added; Python LLOC counted as radon counts it;
// nothing else of the analysis changed, checked field by field).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { main } from '../../../src/cli/main';
import { analyzePatches } from '../../../src/app/analysis/analyzePatches';
import { createTreeSitterSymbolIndex } from '../../../src/app/symbols/symbolIndex';
import { pinnedRepo } from './pinnedRepo';

const PINNED = {
  json: '613720279f37d8414853bd2c3fb7c5b39516db71746cacabff571a55a00754b4',
  text: '4e00cba7ec855f43968df95d5514d7b00f2b0b9eae05b43b04666604a9d530a3',
};

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function analyze(args: string[]): Promise<string> {
  let out = '';
  let err = '';
  const code = await main(['analyze', ...args], {
    out: (t) => (out += t + '\n'),
    err: (t) => (err += t + '\n'),
    cwd: process.cwd(),
  });
  assert.equal(code, 0, err);
  return out;
}

test('analyze prints exactly the recorded text and JSON for a many-file, many-language pair', async () => {
  const p = pinnedRepo();
  try {
    const args = ['--patch', p.stepDiff, '--gold', p.goldDiff, '--repo', p.repo, '--base', p.base];
    const json = await analyze([...args, '--json']);
    // The text names the patch files (temporary paths): digest it from the line after the title.
    const text = (await analyze(args)).split('\n').slice(1).join('\n');
    const parsed = JSON.parse(json);
    assert.ok(parsed.metrics.length > 100 && parsed.drift.length > 100, 'the pair exercises metrics and drift');
    assert.deepEqual({ json: sha256(json), text: sha256(text) }, PINNED);
  } finally {
    p.remove();
  }
});

test('analysing the files on worker threads gives the same analysis as on one thread', async () => {
  const p = pinnedRepo();
  try {
    const request = {
      patchPath: p.stepDiff,
      goldPath: p.goldDiff,
      repo: p.repo,
      base: p.base,
      symbols: createTreeSitterSymbolIndex(),
    };
    const one = await analyzePatches({ ...request, threads: 1 });
    const three = await analyzePatches({ ...request, threads: 3 });
    assert.equal(sha256(JSON.stringify(three.analysis, null, 2) + '\n'), PINNED.json);
    assert.deepEqual(three, one);
  } finally {
    p.remove();
  }
});
