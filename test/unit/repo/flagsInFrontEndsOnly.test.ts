// Errors raised below the front ends (app, core, infra) name the input, not the CLI's flag for it:
// a VS Code user who picked a repository in a dialog must not read "--repo" (src/core/util/errors.ts
// OptionError; each front end words it: src/cli/optionWords.ts, src/vscode/optionWords.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { OptionError } from '../../../src/core/util/errors';
import { describeFailure } from '../../../src/cli/failure';
import { vscodeOptionMessage } from '../../../src/vscode/optionWords';

const ROOT = join(__dirname, '..', '..', '..');
/** Words that look like flags and are not ChainLens's: a diff header, git's own options. */
const NOT_FLAGS = /diff --git|git [a-z-]+ --/g;
/** Messages that deliberately name both front ends' words for one input. */
const BOTH_NAMED = /the chainlens\.[A-Za-z]+ setting or --[a-z-]+/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The text of every `new UserError(…)` / `new OptionError(…)` call, to its closing parenthesis. */
function errorCalls(text: string): string[] {
  const calls: string[] = [];
  for (const m of text.matchAll(/new (?:User|Option)Error\(/g)) {
    let depth = 0;
    let i = m.index + m[0].length - 1;
    for (; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) break;
    }
    calls.push(text.slice(m.index, i + 1));
  }
  return calls;
}

test('no error raised in app, core or infra names a CLI flag', () => {
  const offenders: string[] = [];
  for (const layer of ['app', 'core', 'infra'])
    for (const path of files(join(ROOT, 'src', layer)))
      for (const call of errorCalls(readFileSync(path, 'utf8'))) {
        const flag = /(?<![\w-])--[a-z][a-z-]+/.exec(call.replace(NOT_FLAGS, '').replace(BOTH_NAMED, ''));
        if (flag) offenders.push(`${relative(ROOT, path)}: ${flag[0]} in ${call.split('\n')[0].trim()}`);
      }
  assert.deepEqual(offenders, []);
});

test('an input error reads as the flag in the CLI and as the field in VS Code', () => {
  const e = new OptionError('repo', 'no repository for astropy/astropy (chain c1)');
  assert.deepEqual(describeFailure(e), {
    message: '--repo: no repository for astropy/astropy (chain c1)',
    details: [],
    code: 2,
  });
  assert.equal(vscodeOptionMessage(e), 'Repository: no repository for astropy/astropy (chain c1)');
  assert.equal(describeFailure(new OptionError('dir', 'x is a file', 'input')).code, 1);
});
