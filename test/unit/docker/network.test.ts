// The network of an evaluation container (docs/reference/containers.md, "No network"): none unless
// asked for, by the caller or by CHAINLENS_EVAL_NETWORK (what `--network` sets); a `--network`
// that cannot name a Docker network is a usage error before anything is made. The container test
// (test/container/noNetwork.test.ts) checks that such a container reaches nothing.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { makeTinyChain } from '../../helpers/tinyChain';
import { evaluationHostConfig, evaluationNetwork } from '../../../src/infra/docker/network';

const own = process.env.CHAINLENS_EVAL_NETWORK;
afterEach(() => {
  if (own === undefined) delete process.env.CHAINLENS_EVAL_NETWORK;
  else process.env.CHAINLENS_EVAL_NETWORK = own;
});

test('an evaluation container has no network unless one is asked for', () => {
  delete process.env.CHAINLENS_EVAL_NETWORK;
  assert.equal(evaluationNetwork(undefined), 'none');
  assert.deepEqual(evaluationHostConfig({}), { NetworkMode: 'none' });
  assert.deepEqual(evaluationHostConfig({ memoryLimitBytes: 1 << 30 }), {
    NetworkMode: 'none',
    Memory: 1 << 30,
    MemorySwap: 1 << 30,
  });
  process.env.CHAINLENS_EVAL_NETWORK = 'bridge';
  assert.equal(evaluationNetwork(undefined), 'bridge');
  assert.equal(evaluationNetwork('host'), 'host', "the caller's choice wins over the setting");
});

test('eval and batch --network with something that is not a network name: usage error (exit 2), nothing made', async () => {
  const tiny = makeTinyChain();
  try {
    const dir = join(tiny.root, 'w');
    const common = ['--repo', tiny.repo, '--predictions', 'gold', '--network', 'bridge; rm -rf /'];
    for (const args of [
      ['eval', tiny.chainFile, '--dir', dir, '--mode', 'seq', ...common],
      ['batch', tiny.chainFile, '--run-dir', join(tiny.root, 'run'), ...common],
    ]) {
      const r = await runCli(args, tiny.root);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--network: 'bridge; rm -rf \/' is not a Docker network/);
    }
    assert.equal(existsSync(dir), false);
    assert.equal(existsSync(join(tiny.root, 'run')), false);
    assert.equal(process.env.CHAINLENS_EVAL_NETWORK, own);
  } finally {
    tiny.cleanup();
  }
});
