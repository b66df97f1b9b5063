// Pins `chainlens trajectory` output byte for byte (text, --json, --step, --instance) on the
// fixtures and on the benchmark's generated OpenHands output.jsonl and SWE-agent .traj, so the
// loader can be made faster without the printed answer changing. The digests were taken from the
// output before the loader's performance work; a digest that moves means the output moved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../../src/cli/main';
import { samples } from './fixtures';

const ROOT = resolve(__dirname, '../../..');

async function digest(placeholders: [string, string][], args: string[]): Promise<string> {
  let out = '';
  let err = '';
  const code = await main(['trajectory', ...args], {
    out: (t) => (out += t + '\n'),
    write: (t) => (out += t),
    err: (t) => (err += t + '\n'),
    cwd: process.cwd(),
  });
  // file paths in the output depend on where the repository and the temporary folder are
  let text = `${code}\n${out}\n--- stderr\n${err}`;
  for (const [from, to] of placeholders) text = text.split(from).join(to);
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The cases: each file alone, as JSON, and a few steps in full (text and JSON). */
function cases(file: string, steps: number[], instance?: string): { name: string; args: string[] }[] {
  const pick = instance ? ['--instance', instance] : [];
  const out = [
    { name: '', args: [file] },
    { name: '--json', args: [file, '--json'] },
  ];
  if (instance) {
    out.push({ name: `--instance ${instance}`, args: [file, ...pick] });
    out.push({ name: `--instance ${instance} --json`, args: [file, ...pick, '--json'] });
  }
  for (const s of steps) {
    out.push({ name: `${pick.join(' ')} --step ${s}`.trim(), args: [file, ...pick, '--step', String(s)] });
    out.push({
      name: `${pick.join(' ')} --step ${s} --json`.trim(),
      args: [file, ...pick, '--step', String(s), '--json'],
    });
  }
  return out;
}

const expected: Record<string, string> = {
  'generated output.jsonl': '5d8db721cb7f4499',
  'generated output.jsonl --json': '2599d7619996f574',
  'generated output.jsonl --instance bench__bench-1': 'b9be7c8facdf2bdc',
  'generated output.jsonl --instance bench__bench-1 --json': 'beda96dce1fecd75',
  'generated output.jsonl --instance bench__bench-1 --step 0': 'ac87643ed867e843',
  'generated output.jsonl --instance bench__bench-1 --step 0 --json': 'eb0aa65d2c73af0c',
  'generated output.jsonl --instance bench__bench-1 --step 1': '0091cad2ba0c2e07',
  'generated output.jsonl --instance bench__bench-1 --step 1 --json': '179678ff04295f7f',
  'generated output.jsonl --instance bench__bench-1 --step 5': '8dbcad87c678d5e3',
  'generated output.jsonl --instance bench__bench-1 --step 5 --json': '8cd158243f17b23f',
  'generated output.jsonl --instance bench__bench-1 --step 61': '0072b17a2166b594',
  'generated output.jsonl --instance bench__bench-1 --step 61 --json': '864ea99d636da6ea',
  'generated output.jsonl --instance bench__bench-1 --step 179': 'd1c9b3035e3441ba',
  'generated output.jsonl --instance bench__bench-1 --step 179 --json': '442aeffe5ef1c13c',
  'generated .traj': '9e55b1953f2557cc',
  'generated .traj --json': 'f4e4b46d9709c8b0',
  'generated .traj --step 0': 'cdbe363387e8c543',
  'generated .traj --step 0 --json': '1af0d5ed768ccdb3',
  'generated .traj --step 1': 'c0a7498c71168fe3',
  'generated .traj --step 1 --json': '3f2498b82866c6f3',
  'generated .traj --step 2': '829b1d2156ae9e04',
  'generated .traj --step 2 --json': '4ee86735a7b8d120',
  'generated .traj --step 3': 'a490b436a10d506f',
  'generated .traj --step 3 --json': 'c04961084eaa1e96',
  'generated .traj --step 40': '32e8516bb27eeea5',
  'generated .traj --step 40 --json': '32e8516bb27eeea5',
  'openhands v0': '66db6a7141c5bb53',
  'openhands v0 --json': 'cba2f2b86f553031',
  'openhands v0 --instance ponylang__ponyc-4593': 'c0169f56ae953140',
  'openhands v0 --instance ponylang__ponyc-4593 --json': '3b2475c9f23125bd',
  'openhands v0 --instance ponylang__ponyc-4593 --step 0': '9d5ad19a242a7bfc',
  'openhands v0 --instance ponylang__ponyc-4593 --step 0 --json': 'ab50c82c4d386ffa',
  'openhands v0 --instance ponylang__ponyc-4593 --step 3': 'e23c3335b4f72117',
  'openhands v0 --instance ponylang__ponyc-4593 --step 3 --json': '62ef6ed49dc5387f',
  'openhands v0 --instance ponylang__ponyc-4593 --step 10': '22b9388775b11b4f',
  'openhands v0 --instance ponylang__ponyc-4593 --step 10 --json': '30485b59845a89e1',
  'openhands v0 --instance ponylang__ponyc-4593 --step 32': '5f10415f09a900fe',
  'openhands v0 --instance ponylang__ponyc-4593 --step 32 --json': '5f8c90623ad1bfe6',
  'openhands v1': '2fec213d4a564bba',
  'openhands v1 --json': '47c52641748ed848',
  'openhands v1 --step 0': '84e66b6389080ef2',
  'openhands v1 --step 0 --json': '14a5563cf4f64cff',
  'openhands v1 --step 2': '8a7efada83569c82',
  'openhands v1 --step 2 --json': 'b04bb22bf7d571e2',
  'openhands v1 --step 5': '5dc7379183b8ec0b',
  'openhands v1 --step 5 --json': '8a25346ba01f6280',
  'swe-agent demo': '05e263c96117bac5',
  'swe-agent demo --json': '91cacf592ccc52fb',
  'swe-agent demo --step 0': '478588393bd733d7',
  'swe-agent demo --step 0 --json': 'e32cdb708ee209cb',
  'swe-agent demo --step 1': 'd52339d221ad9317',
  'swe-agent demo --step 1 --json': 'e2fc492a2e03511a',
  'swe-agent demo --step 3': '56bdbc19d2fe077d',
  'swe-agent demo --step 3 --json': 'a2cd60d4d4f9cb52',
  'swe-agent v0': 'c98d1ea76d9039c8',
  'swe-agent v0 --json': '673f71e24856bdb0',
  'swe-agent v0 --step 0': 'dbb587d93a8f37dd',
  'swe-agent v0 --step 0 --json': '8c5c68e6b39e5fc7',
  'swe-agent v0 --step 5': '44f14d4f07a34fbf',
  'swe-agent v0 --step 5 --json': '0c931d4f35d4006f',
  'swe-agent v0 --step 8': '11bf6527c7fb3f3a',
  'swe-agent v0 --step 8 --json': '74a14718c5f90021',
  'swe-agent v0 --step 11': 'd27889bc893bad22',
  'swe-agent v0 --step 11 --json': 'f4f432f0eea468d3',
  'swe-agent v1': '772dc647b6c5e5eb',
  'swe-agent v1 --json': '34688fd4f52c54d2',
  'swe-agent v1 --step 0': '4b05a782a7d0b460',
  'swe-agent v1 --step 0 --json': '4b49fa5c6ba6275b',
  'swe-agent v1 --step 5': '2f2b6b7ab2ba7375',
  'swe-agent v1 --step 5 --json': '482dd7c64854ea76',
  'swe-agent v1 --step 10': '3e3e53a8d128e45a',
  'swe-agent v1 --step 10 --json': 'f3f14d07b020af23',
  'swe-agent preds': 'b7a9607f37566d0c',
  'swe-agent preds --json': 'd0c495b7e9dab583',
  'swe-agent preds --step 0': 'f517acb686fd1031',
  'swe-agent preds --step 0 --json': 'f517acb686fd1031',
  'mini-swe-agent': '4fa265c98d87500b',
  'mini-swe-agent --json': '3f6492edcd6099a8',
  'mini-swe-agent --step 0': 'be6a1f22da58c676',
  'mini-swe-agent --step 0 --json': 'a1c13150391050e2',
  'mini-swe-agent --step 7': '9fc884008108f727',
  'mini-swe-agent --step 7 --json': 'dd4d3cca5f11ab74',
  'mini-swe-agent preds': '967ae2bfe959ed3e',
  'mini-swe-agent preds --json': '9439b6edd6d33f0f',
  'mini-swe-agent preds --step 0': 'f517acb686fd1031',
  'mini-swe-agent preds --step 0 --json': 'f517acb686fd1031',
};

test('chainlens trajectory prints what it printed before (fixtures and generated runs)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-pin-'));
  try {
    execFileSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bench/trajectory-load.ts'), '--generate', dir, '2'],
      {
        cwd: ROOT,
      },
    );
    const files: [string, string, number[], string?][] = [
      ['generated output.jsonl', join(dir, 'output.jsonl'), [0, 1, 5, 61, 179], 'bench__bench-1'],
      ['generated .traj', join(dir, 'bench__bench-1.traj'), [0, 1, 2, 3, 40]],
      ['openhands v0', samples.ohV0, [0, 3, 10, 32], 'ponylang__ponyc-4593'],
      ['openhands v1', samples.ohV1, [0, 2, 5]],
      ['swe-agent demo', samples.sweDemo, [0, 1, 3]],
      ['swe-agent v0', samples.sweV0, [0, 5, 8, 11]],
      ['swe-agent v1', samples.sweV1, [0, 5, 10]],
      ['swe-agent preds', samples.swePreds, [0]],
      ['mini-swe-agent', samples.miniLegacy, [0, 7]],
      ['mini-swe-agent preds', samples.miniPreds, [0]],
    ];
    const placeholders: [string, string][] = [
      [dir, '<tmp>'],
      [ROOT, '<repo>'],
    ];
    const got: Record<string, string> = {};
    for (const [label, file, steps, instance] of files)
      for (const c of cases(file, steps, instance))
        got[`${label} ${c.name}`.trim()] = await digest(placeholders, c.args);
    assert.deepEqual(got, expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
