// Bad arguments to `chainlens agent run` and to `chainlens batch` (--agent, --repeats): each is a usage error
// (exit 2) naming the flag, with no stack trace, and nothing written (no work tree, no run
// directory). None of these reaches the engine: arguments are checked before it is asked.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { makeTinyChain, type TinyChain } from '../../helpers/tinyChain';

let tiny: TinyChain;
before(() => (tiny = makeTinyChain()));
after(() => tiny.cleanup());

const STACK = /^\s+at .+[(:]\d+|internal error|node:internal/m;

const agentRun = (...extra: string[]) => [
  'agent',
  'run',
  tiny.chainFile,
  '--repo',
  tiny.repo,
  '--dir',
  join(tiny.root, 'work'),
  ...extra,
];

const cases: [string, string[], RegExp][] = [
  ['no --mode', agentRun('--agent', 'true'), /missing required option --mode/],
  [
    'an unknown mode',
    agentRun('--mode', 'seq-mem', '--agent', 'true'),
    /--mode must be oracle, seq or seq\+mem, not 'seq-mem'/,
  ],
  ['no --agent', agentRun('--mode', 'seq'), /missing required option --agent/],
  ['an empty command', agentRun('--mode', 'seq', '--agent', '  '), /--agent must be a command/],
  [
    'an unknown placement',
    agentRun('--mode', 'seq', '--agent', 'true', '--agent-in', 'vm'),
    /--agent-in must be container or host, not 'vm'/,
  ],
  [
    'an image for a host agent',
    agentRun('--mode', 'seq', '--agent', 'true', '--agent-in', 'host', '--agent-image', 'x:1'),
    /--agent-image applies to --agent-in container only/,
  ],
  [
    'a timeout that is no number of seconds',
    agentRun('--mode', 'seq', '--agent', 'true', '--agent-timeout', '1h'),
    /--agent-timeout must be a positive number of seconds, not '1h'/,
  ],
  [
    'a condition with no agent step',
    agentRun('--mode', 'seq', '--agent', 'true', '--condition', 'HH'),
    /--condition must be AA or HA for an agent run/,
  ],
  [
    'a condition outside seq',
    agentRun('--mode', 'oracle', '--agent', 'true', '--condition', 'AA'),
    /--condition: AA runs PR2 on PR1's end, so the mode must be seq, not oracle/,
  ],
];

for (const [what, args, message] of cases)
  test(`agent run with ${what}: usage error naming the flag, nothing written`, async () => {
    const r = await runCli(args);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, STACK);
    assert.equal(existsSync(join(tiny.root, 'work')), false);
  });

const batch = (...extra: string[]) => [
  'batch',
  tiny.chainFile,
  '--run-dir',
  join(tiny.root, 'run'),
  '--repo',
  tiny.repo,
  ...extra,
];

const batchCases: [string, string[], RegExp][] = [
  ['an agent without a name', batch('--agent', 'my-agent --go'), /--agent: must be NAME=COMMAND/],
  ['an agent with an empty command', batch('--agent', 'mine= '), /--agent: must be NAME=COMMAND/],
  [
    'seq+mem with a recorded source',
    batch('--predictions', 'gold', '--agent', 'mine=true', '--mode', 'seq,seq+mem'),
    /--mode: seq\+mem applies to agent sources only; 'gold' is recorded/,
  ],
  [
    'agent options without an agent',
    batch('--predictions', 'gold', '--agent-in', 'host'),
    /--agent: an agent placement, image or timeout applies to agent sources/,
  ],
  [
    'an agent named like another source',
    batch('--predictions', 'gold', '--agent', 'gold=true'),
    /two sources are named 'gold'/,
  ],
  ['no source at all', batch(), /missing required option --predictions \(or --agent NAME=COMMAND\)/],
  [
    'no repeat at all',
    batch('--predictions', 'gold', '--repeats', '0'),
    /--repeats: must be a number of evaluations per step from 1 to 100, not 0/,
  ],
  [
    'repeats that are not a number',
    batch('--predictions', 'gold', '--repeats', 'twice'),
    /--repeats must be a number of evaluations per step from 1 to 100, not 'twice'/,
  ],
];

for (const [what, args, message] of batchCases)
  test(`batch with ${what}: usage error, no run directory`, async () => {
    const r = await runCli(args);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, STACK);
    assert.equal(existsSync(join(tiny.root, 'run')), false);
  });
