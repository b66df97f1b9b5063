// `chainlens analyze` output held byte for byte to digests recorded before the analysis was made
// faster: the text and the JSON of a pair over many files and languages (pinnedRepo.ts). A
// change that means to alter the output records new digests here, on purpose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { main } from '../../../src/cli/main';
import { analyzePatches } from '../../../src/app/analysis/analyzePatches';
import { createTreeSitterSymbolIndex } from '../../../src/app/symbols/symbolIndex';
import { pinnedRepo } from './pinnedRepo';

const PINNED = {
  json: 'b4e3d6578feb2e8d7085c3f7512a37e2e07365f35a8433f821f65c13ea583416',
  text: 'a1dbfdb43b7e2512260040bd0bc878acbcaad06c37394385e2f4e4c773bf41d1',
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
