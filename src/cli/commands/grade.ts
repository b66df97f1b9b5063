import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliCommand, CliIO } from '../command';
import { parseCommandArgs, requireOption } from '../args';
import { stripBom } from '../../core/util/bom';
import { UserError } from '../../core/util/errors';
import { RepoNameSchema } from '../../protocol/formats/repoName';
import {
  EvalTypeSchema,
  GradingProfileSchema,
  LOG_PARSER_NAMES,
  type EvalType,
  type GradeResult,
  type GradingProfile,
  type LogParserName,
} from '../../protocol/grading';
import { evalTypeFor, logParserFor } from '../../core/evaluation/stepSpec';
import {
  gradeLogExplained,
  mappedRepositories,
  parserByName,
  PARSERS_NEEDING_INSTANCE,
  PARSERS_NEEDING_VERSION,
  type LogProblem,
} from '../../core/evaluation/grading/index';

const usage = `usage: chainlens grade --log <file> --profile swebench-v5|swebench-v4 [--parser <name> | --repo <owner/name>]
                       [--instance <id>] [--version <v>] [--f2p <json file>] [--p2p <json file>]
                       [--eval-type pass_and_fail|fail_only] [--json]
       chainlens grade --parser list

Grade one evaluation log exactly as the SWE-bench harness does (v5: the current harness; v4: release 4.1).
  --log        the whole eval log (start/end markers, set -x lines, v5's ">>>>> Test Exit Code: N")
  --profile    which harness version's rules to apply
  --parser     the log parser (gotest, cargo, jest, maven, phpunit, ... or the harness's name, parse_log_gotest);
               default: the one the harness maps --repo to, else pytest. "--parser list" lists them all
  --repo       owner/name; picks the parser (and fail_only for the harness's fail-only repos)
  --instance   the instance id (jekyll and immutable-js pick their runner by it)
  --version    the instance's version (next and lighthouse pick their runner by it)
  --f2p/--p2p  JSON files holding an array of test ids (FAIL_TO_PASS / PASS_TO_PASS)
  --eval-type  pass_and_fail (default) or fail_only
  --json       print { log_ok, status_map, tests_status, resolution }`;

const options = {
  log: { type: 'string' },
  profile: { type: 'string' },
  parser: { type: 'string' },
  repo: { type: 'string' },
  instance: { type: 'string' },
  version: { type: 'string' },
  f2p: { type: 'string' },
  p2p: { type: 'string' },
  'eval-type': { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export const gradeCommand: CliCommand = {
  name: 'grade',
  usage,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values } = parseCommandArgs(argv, options, usage);
    if (values.parser === 'list') {
      io.out(parserList());
      return 0;
    }
    const logPath = resolve(io.cwd, requireOption(values.log, '--log', usage));
    const profile = oneOf(
      GradingProfileSchema.options,
      requireOption(values.profile, '--profile', usage),
      '--profile',
    ) as GradingProfile;
    const repo = values.repo === undefined ? undefined : checkRepo(values.repo);
    // --parser and --eval-type are the log's own, as a dataset's are: they win over the repository's.
    const parser = logParserFor(values.parser !== undefined ? namedParser(values.parser) : undefined, repo);
    const evalType = evalTypeFor(
      values['eval-type'] !== undefined
        ? (oneOf(EvalTypeSchema.options, values['eval-type'], '--eval-type') as EvalType)
        : undefined,
      repo,
      profile,
    );
    if (PARSERS_NEEDING_INSTANCE.has(parser) && values.instance === undefined)
      throw new UserError(
        `--parser ${parser} picks its runner by instance id: give --instance <id>\n\n${usage}`,
        'usage',
      );
    if (PARSERS_NEEDING_VERSION.has(parser) && values.version === undefined)
      throw new UserError(`--parser ${parser} picks its runner by version: give --version <v>\n\n${usage}`, 'usage');

    const log = await readText(logPath, '--log');
    const failToPass = values.f2p === undefined ? [] : await readTestIds(resolve(io.cwd, values.f2p), '--f2p');
    const passToPass = values.p2p === undefined ? [] : await readTestIds(resolve(io.cwd, values.p2p), '--p2p');

    const { grade, problem } = gradeLogExplained({
      log,
      profile,
      parser,
      failToPass,
      passToPass,
      evalType,
      instanceId: values.instance,
      version: values.version,
    });
    if (values.json) {
      const { log_ok, status_map, tests_status, resolution } = grade;
      io.out(JSON.stringify({ log_ok, status_map, tests_status, resolution }, null, 2));
    } else {
      io.out(summary(grade, problem, { logPath, profile, parser, evalType }));
    }
    return 0;
  },
};

// A flag given a value it does not take is a usage error (exit 2), like an unknown flag.
function oneOf(allowed: readonly string[], value: string, flag: string): string {
  if (allowed.includes(value)) return value;
  throw new UserError(`${flag}: unknown value '${value}' (expected one of: ${allowed.join(', ')})`, 'usage');
}

function checkRepo(value: string): string {
  const parsed = RepoNameSchema.safeParse(value.trim());
  if (!parsed.success) throw new UserError(`--repo '${value}': ${parsed.error.issues[0].message}`, 'usage');
  return parsed.data;
}

function namedParser(name: string): LogParserName {
  const parser = parserByName(name);
  if (parser !== null) return parser;
  throw new UserError(
    `--parser: unknown parser '${name}' (expected one of: ${LOG_PARSER_NAMES.join(', ')}, a harness name such as parse_log_gotest, or list)`,
    'usage',
  );
}

/** `--parser list`: every parser, with the repositories the harness maps to it. */
function parserList(): string {
  const repos = new Map<LogParserName, string[]>();
  for (const [repo, parser] of mappedRepositories()) repos.set(parser, [...(repos.get(parser) ?? []), repo]);
  const width = Math.max(...LOG_PARSER_NAMES.map((n) => n.length));
  const lines = LOG_PARSER_NAMES.map((name) => {
    const mapped = repos.get(name) ?? [];
    const needs = PARSERS_NEEDING_INSTANCE.has(name)
      ? ' (needs --instance)'
      : PARSERS_NEEDING_VERSION.has(name)
        ? ' (needs --version)'
        : '';
    return `${name.padEnd(width)}  ${mapped.length ? mapped.join(', ') : '(no repository; by name only)'}${needs}`;
  });
  return ['Log parsers (name, then the repositories the harness grades with it):', ...lines].join('\n');
}

async function readText(path: string, flag: string): Promise<string> {
  try {
    return stripBom(await readFile(path, 'utf8'));
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new UserError(`${flag} ${path}: cannot read the file (${reason})`);
  }
}

/** A JSON array of test ids; a JSON string holding such an array (Hugging Face's form) is accepted too. */
async function readTestIds(path: string, flag: string): Promise<string[]> {
  const text = await readText(path, flag);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${flag} ${path}: invalid JSON (${(e as Error).message})`);
  }
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (e) {
      throw new UserError(`${flag} ${path}: the JSON string does not hold a JSON array (${(e as Error).message})`);
    }
  }
  if (!Array.isArray(value))
    throw new UserError(`${flag} ${path}: expected a JSON array of test ids at $, found ${describe(value)}`);
  const bad = value.findIndex((v) => typeof v !== 'string');
  if (bad >= 0)
    throw new UserError(`${flag} ${path}: $[${bad}] must be a string test id, found ${describe(value[bad])}`);
  return value as string[];
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

function summary(
  grade: GradeResult,
  problem: LogProblem | null,
  ctx: { logPath: string; profile: GradingProfile; parser: LogParserName; evalType: EvalType },
): string {
  const lines = [`${ctx.logPath}`, `  profile ${ctx.profile}, parser ${ctx.parser}, ${ctx.evalType}`];
  if (!grade.log_ok) {
    lines.push(`  log not usable: ${problem?.message ?? 'unknown reason'}`);
  } else {
    const counts = new Map<string, number>();
    for (const s of Object.values(grade.status_map)) counts.set(s, (counts.get(s) ?? 0) + 1);
    const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([s, n]) => `${n} ${s}`);
    lines.push(
      `  ${Object.keys(grade.status_map).length} tests in the log${parts.length ? `: ${parts.join(', ')}` : ''}`,
    );
  }
  for (const key of ['FAIL_TO_PASS', 'PASS_TO_PASS'] as const) {
    const b = grade.tests_status[key];
    lines.push(`  ${key}: ${b.success.length} passed, ${b.failure.length} failed`);
    for (const id of b.failure.slice(0, 20)) lines.push(`    failed: ${id}`);
    if (b.failure.length > 20) lines.push(`    ... and ${b.failure.length - 20} more`);
  }
  const given =
    grade.tests_status.FAIL_TO_PASS.success.length +
    grade.tests_status.FAIL_TO_PASS.failure.length +
    grade.tests_status.PASS_TO_PASS.success.length +
    grade.tests_status.PASS_TO_PASS.failure.length;
  // The harness scores empty buckets as ratio 1, so say why a run with no ids reads as resolved.
  lines.push(
    `  ${grade.resolution}${given === 0 && grade.log_ok ? ' (no F2P/P2P test ids counted: give --f2p/--p2p)' : ''}`,
  );
  return lines.join('\n');
}
