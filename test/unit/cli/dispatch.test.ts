// One subcommand mechanism (src/cli/commandGroup.ts): every group answers `<group> <sub> --help`
// with that subcommand's usage, a mistyped name or flag is a usage error (2) naming the nearest
// real one, never Node's raw parseArgs message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../../helpers/cli';
import { commands } from '../../../src/cli/commands/index';

test('every subcommand of every group prints its own usage for --help, not the group’s', async () => {
  let groups = 0;
  for (const entry of commands) {
    const command = await entry.load();
    if (!('subcommands' in command)) continue;
    groups++;
    const group = await runCli([entry.name, '--help']);
    assert.equal(group.code, 0);
    for (const sub of command.subcommands) {
      assert.ok(group.stdout.includes(`  ${sub.name}`), `${entry.name} --help lists ${sub.name}`);
      const help = await runCli([entry.name, sub.name, '--help']);
      assert.equal(help.code, 0, `${entry.name} ${sub.name} --help: ${help.stderr}`);
      assert.match(
        help.stdout,
        new RegExp(`^usage: chainlens ${entry.name} ${sub.name}\\b`),
        `${entry.name} ${sub.name}`,
      );
    }
  }
  assert.deepEqual(groups, 5, 'sweci, study, codethread, labels and agent are groups');
});

test('a mistyped flag: "unknown flag --chain-idd (did you mean --chain-id?)", exit 2', async () => {
  const r = await runCli(['validate', 'demo/chain.json', '--chain-idd', 'x']);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.split('\n')[0], 'chainlens validate: unknown flag --chain-idd (did you mean --chain-id?)');
  assert.doesNotMatch(r.stderr, /To specify a positional argument/);
  const sub = await runCli(['sweci', 'score', 'w', '--gama', '1']);
  assert.equal(sub.code, 2);
  assert.equal(sub.stderr.split('\n')[0], 'chainlens sweci: unknown flag --gama (did you mean --gamma?)');
  const far = await runCli(['status', '--frobnicate']);
  assert.equal(far.stderr.split('\n')[0], 'chainlens status: unknown flag --frobnicate');
  const value = await runCli(['validate', 'demo/chain.json', '--chain-id']);
  assert.equal(value.code, 2);
  assert.equal(value.stderr.split('\n')[0], 'chainlens validate: flag --chain-id needs a value');
});

test('a mistyped command or subcommand names the nearest one, exit 2', async () => {
  const top = await runCli(['stauts']);
  assert.equal(top.code, 2);
  assert.match(top.stderr, /^chainlens: unknown command 'stauts' \(did you mean status\?\)/);
  const sub = await runCli(['study', 'submitt', 'study.json']);
  assert.equal(sub.code, 2);
  assert.match(sub.stderr, /^chainlens study: unknown subcommand 'submitt' \(did you mean submit\?\)/);
  const flagFirst = await runCli(['sweci', '--dir', 'w']);
  assert.equal(flagFirst.code, 2);
  assert.match(flagFirst.stderr, /expected a subcommand before the flags, not '--dir'/);
});
