// inflatePrefix against node:zlib: streams zlib writes at every level and strategy (stored, fixed
// and dynamic Huffman blocks, long back references), git's own commit objects, and the streams it
// must leave to zlib (truncated, damaged, with a preset dictionary), where it answers null.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, deflateSync, inflateSync } from 'node:zlib';
import { inflatePrefix } from '../../../src/core/util/inflatePrefix';
import { git } from '../../helpers/tinyChain';

const texts = (): Buffer[] => {
  const commit = Buffer.from(
    'commit 230\0tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent 3fed617ef207319b1d9a48d470e5a218b669e882\n' +
      'author ChainLens <chainlens@localhost> 1764680000 +0000\ncommitter ChainLens <chainlens@localhost> 1764680000 +0000\n\nstep 1\n',
  );
  const repetitive = Buffer.from('abcabcabcabc'.repeat(3000) + 'the end');
  const words = Buffer.from(
    Array.from({ length: 4000 }, (_, i) => ['def', 'return', 'self', 'x', 'import', String(i % 97)][i % 6]).join(' '),
  );
  return [Buffer.alloc(0), Buffer.from('a'), commit, repetitive, words, randomBytes(70_000)];
};

test('inflatePrefix gives what node:zlib inflates, for every level and strategy', () => {
  const strategies = [
    constants.Z_DEFAULT_STRATEGY,
    constants.Z_FIXED,
    constants.Z_HUFFMAN_ONLY,
    constants.Z_RLE,
    constants.Z_FILTERED,
  ];
  for (const text of texts())
    for (let level = 0; level <= 9; level++)
      for (const strategy of strategies) {
        const stream = deflateSync(text, { level, strategy });
        const whole = inflatePrefix(stream, Infinity);
        assert.ok(whole, `level ${level}, strategy ${strategy}, ${text.length} bytes: null`);
        assert.deepEqual(Buffer.from(whole), inflateSync(stream), `level ${level}, strategy ${strategy}`);
        const prefix = inflatePrefix(stream, 64)!;
        assert.ok(prefix.length >= Math.min(64, text.length));
        assert.deepEqual(Buffer.from(prefix.subarray(0, 64)), text.subarray(0, 64));
      }
});

test('inflatePrefix reads the objects git writes (loose commits at core.looseCompression 0, 1 and 9)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-inflate-'));
  try {
    git(dir, 'init', '-q');
    for (const level of [0, 1, 9]) {
      git(dir, '-c', `core.looseCompression=${level}`, 'commit', '-q', '--allow-empty', '-m', `level ${level}`);
      const sha = git(dir, 'rev-parse', 'HEAD').trim();
      const stream = readFileSync(join(dir, '.git', 'objects', sha.slice(0, 2), sha.slice(2)));
      const text = Buffer.from(inflatePrefix(stream, 128)!).toString('latin1');
      const tree = git(dir, 'rev-parse', 'HEAD^{tree}').trim();
      assert.match(text, new RegExp(`^commit \\d+\\0tree ${tree}\\n`), `core.looseCompression=${level}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('inflatePrefix leaves to zlib what it cannot finish: truncated, damaged, preset dictionary', () => {
  const text = Buffer.from('tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n'.repeat(40));
  const stream = deflateSync(text);
  assert.equal(inflatePrefix(stream.subarray(0, 6), 1000), null, 'truncated');
  assert.equal(inflatePrefix(Buffer.from([0x78, 0x9c, 0xff, 0xff, 0xff]), 10), null, 'block type 3');
  assert.equal(inflatePrefix(Buffer.from([0x1f, 0x8b, 0x08, 0x00]), 10), null, 'a gzip header');
  const withDictionary = deflateSync(text, { dictionary: Buffer.from('tree ') });
  assert.equal(inflatePrefix(withDictionary, 10), null, 'preset dictionary');
  // A truncated stream still gives its prefix when the prefix asked for is complete before the cut.
  const prefix = inflatePrefix(stream.subarray(0, stream.length - 4), 46);
  assert.deepEqual(Buffer.from(prefix!.subarray(0, 46)), text.subarray(0, 46));
});
