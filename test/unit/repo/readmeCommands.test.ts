// The README's command summary lists every command and subcommand, with every flag its usage
// names (the usage is what `--help` prints, the one the command parses with).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commands } from '../../../src/cli/commands/index';
import type { CliCommandEntry } from '../../../src/cli/command';

const README = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
const block = README.slice(README.indexOf('## The CLI'));
const summary = block.slice(block.indexOf('```\n') + 4, block.indexOf('\n```', block.indexOf('```\n') + 4));

/** The summary's lines for `name` (a line starting with it, and the indented lines after it). */
function linesOf(name: string): string {
  const out: string[] = [];
  let inside = false;
  for (const line of summary.split('\n')) {
    if (line.startsWith('chainlens ')) inside = new RegExp(`^chainlens ${name}(\\s|$)`).test(line.replace(/\s+/g, ' '));
    if (inside) out.push(line.replace(/#.*$/, ''));
  }
  return out.join('\n');
}

const flags = (text: string) => new Set([...text.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]));

async function leaves(entries: readonly CliCommandEntry[], prefix = ''): Promise<{ name: string; usage: string }[]> {
  const out: { name: string; usage: string }[] = [];
  for (const e of entries) {
    const c = await e.load();
    if ('subcommands' in c) out.push(...(await leaves(c.subcommands, `${prefix}${e.name} `)));
    else out.push({ name: `${prefix}${e.name}`, usage: c.usage });
  }
  return out;
}

test('every command of the CLI is in the README summary with every flag of its usage', async () => {
  const missing: string[] = [];
  for (const { name, usage } of await leaves(commands)) {
    const listed = linesOf(name);
    if (!listed) {
      missing.push(`chainlens ${name}`);
      continue;
    }
    const synopsis = usage.split('\n\n')[0];
    for (const flag of flags(synopsis)) if (!flags(listed).has(flag)) missing.push(`chainlens ${name} ${flag}`);
  }
  assert.deepEqual(missing, []);
});
