import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CliIO } from '../../command';
import { commandGroup } from '../../commandGroup';
import { parseCommandArgs, requireOption } from '../../args';
import { UserError } from '../../../core/util/errors';
import { readUserFile, writeFileAtomic } from '../../../infra/files';
import { parseRepoSource } from '../../../infra/git/mirror';
import { buildCodeThreadTasks } from '../../../app/codethread/build';
import { codeThreadReport } from '../../../app/codethread/report';
import { formatCodeThreadReport } from '../../../core/codethread/reportFormat';

const buildUsage = `usage: chainlens codethread build <instances-file> --repo <path|url> --out <tasks.jsonl>
                                 [--instances <id,...>] [--skipped <skipped.jsonl>]

Turns benchmark instances (SWE-bench or SWE-bench Pro JSON/JSONL, or a ChainSWE chain, each bug
fix an instance) into CodeThread two-step tasks, one chain per line of --out: step 1
(<instance>.implementation) restores the bodies of the functions the gold patch changes, graded
by the PR1 filter; step 2 is the instance itself. PR0 is written into --repo as
refs/chainlens/codethread/<instance> and is the chain's base_commit. Instances with no function
body to remove are skipped with the reason (printed; --skipped writes them).`;

const reportUsage = `usage: chainlens codethread report <workdir...> [--json]

For evaluated runs of CodeThread tasks (work trees of chainlens eval/checkout --condition): PR2
resolve rate per condition on the instances every condition has, the HA-vs-AA and AH-vs-AA
discordant pairs with an exact McNemar test, and which symbols an agent's PR1 drifted on and
whether PR2 kept or repaired them.`;

function checkOutPath(flag: string, path: string): string {
  const parent = dirname(path);
  if (!existsSync(parent) || !statSync(parent).isDirectory())
    throw new UserError(`${flag} ${path}: the directory ${parent} does not exist`, 'usage');
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UserError(`${flag} ${path} is a directory; name a file`, 'usage');
  return path;
}

const jsonl = (records: readonly unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

async function build(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      repo: { type: 'string' },
      out: { type: 'string' },
      instances: { type: 'string' },
      skipped: { type: 'string' },
    },
    buildUsage,
    { min: 1, max: 1, missing: 'expected one instances file' },
  );
  const file = resolve(io.cwd, positionals[0]);
  const out = checkOutPath('--out', resolve(io.cwd, requireOption(values.out, '--out', buildUsage)));
  const skippedPath =
    values.skipped === undefined ? undefined : checkOutPath('--skipped', resolve(io.cwd, values.skipped));
  if (skippedPath === out) throw new UserError('--skipped and --out name the same file', 'usage');
  const repo = parseRepoSource(requireOption(values.repo, '--repo', buildUsage), io.cwd);
  const instanceIds = values.instances
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (values.instances !== undefined && !instanceIds?.length)
    throw new UserError(`--instances '${values.instances}' names no instance`, 'usage');
  const text = readUserFile(file, 'instances file');
  const { tasks, skipped } = await buildCodeThreadTasks({
    fileName: positionals[0],
    text,
    repo,
    instanceIds,
    log: (line) => io.err(line),
  });
  if (skippedPath) writeFileAtomic(skippedPath, skipped.length ? jsonl(skipped) : '', { shared: true });
  io.out(`built ${tasks.length} task(s), skipped ${skipped.length}`);
  for (const s of skipped) io.out(`skipped ${s.instance_id}: ${s.reason}: ${s.detail}`);
  if (tasks.length === 0) {
    io.err(`no task was built; ${out} was not written`);
    return 1;
  }
  writeFileAtomic(out, jsonl(tasks), { shared: true });
  io.out(`tasks written to ${out}`);
  return 0;
}

async function report(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean', default: false } }, reportUsage, {
    min: 1,
    max: 10_000,
    missing: 'expected the work trees of evaluated runs',
  });
  const result = await codeThreadReport(positionals.map((p) => resolve(io.cwd, p)));
  io.out(values.json ? JSON.stringify(result, null, 2) : formatCodeThreadReport(result));
  return 0;
}

export const codethreadCommand = commandGroup(
  'codethread',
  'CodeThread (docs/reference/codethread.md): two-step tasks built from benchmark instances, and their report.',
  [
    {
      name: 'build',
      summary:
        'turn benchmark instances into CodeThread two-step tasks (PR0 skeleton, Implementation Task, PR1 filter)',
      load: async () => ({ name: 'codethread build', usage: buildUsage, run: build }),
    },
    {
      name: 'report',
      summary: 'PR2 resolve rate per condition, HA-vs-AA and AH-vs-AA McNemar tests, drifted symbols',
      load: async () => ({ name: 'codethread report', usage: reportUsage, run: report }),
    },
  ],
);
