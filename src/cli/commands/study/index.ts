import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import type { CliCommand, CliIO } from '../../command';
import { commandGroup } from '../../commandGroup';
import { parseCommandArgs, requireOption } from '../../args';
import { UserError } from '../../../core/util/errors';
import { describeIssues } from '../../../core/formats/issues';
import { studyReport } from '../../../core/study/report';
import { reportHtmlPage, reportText } from '../../../core/study/reportView';
import { StudyRowSchema, type StudyRow } from '../../../protocol/studyRecords';
import { readUserFile, writeFileAtomic } from '../../../infra/files';
import { loadStudy, type LoadedStudy } from '../../../app/study/loadStudy';
import { collectRows, exportStudy } from '../../../app/study/export';
import { withdrawParticipant } from '../../../app/study/withdraw';
import { openSession, saveSession } from '../../../app/study/session';
import { participantRunAt, startNextTask, submitCurrentStep } from '../../../app/study/headless';
import { gradeText, OPEN, outcomeOf, researcherRefusal } from '../../../core/study/disclosure';
import { writePackResults } from '../../../app/study/results';
import { packStudy } from '../../../app/study/pack';
import { gradeUngradedOfStudy, gradeUngradedSubmissions } from '../../../app/study/pendingGrades';

const intro = `Run a human study: tasks (chains), conditions (who authors each step), participants, assignment.
The study file format is in the README ("Running a study") and docs/study.md.`;

const verbUsage = (synopsis: string, text: string) => `usage: chainlens study ${synopsis}\n\n${text}`;

/** A study verb: its own flags and usage; the study file is its one positional argument. */
function verb<O extends NonNullable<ParseArgsConfig['options']>>(
  name: string,
  synopsis: string,
  text: string,
  options: O,
  run: (
    io: CliIO,
    path: string,
    values: ReturnType<typeof parseCommandArgs<O>>['values'],
    usage: string,
  ) => Promise<number> | number,
): CliCommand {
  const usage = verbUsage(synopsis, text);
  return {
    name: `study ${name}`,
    usage,
    async run(argv, io) {
      const { values, positionals } = parseCommandArgs(argv, options, usage, {
        min: 1,
        max: 1,
        missing: 'expected a study file',
      });
      // A terminal in a participant's window: the researcher's commands show every participant's work.
      if (name !== 'start' && name !== 'submit') {
        const inside = await participantRunAt(io.cwd);
        const refusal = inside && researcherRefusal({ ...OPEN, participant: true }, `study ${name}`);
        if (refusal) throw new UserError(refusal, 'state');
      }
      return run(io, resolve(io.cwd, positionals[0]), values, usage);
    },
  };
}

const participant = { participant: { type: 'string' } } as const;

const validateVerb = verb(
  'validate',
  'validate <study.json>',
  "Checks the study file and prints each participant's tasks.",
  {},
  (io, path) => validate(io, loadStudy(path)),
);

const startVerb = verb(
  'start',
  'start <study.json> --participant <id> [--work <dir>] [--consent]',
  "Checks the participant's next task out (no VS Code: wall time only).",
  { ...participant, work: { type: 'string' }, consent: { type: 'boolean', default: false } },
  (io, path, values, usage) =>
    start(io, loadStudy(path), requireOption(values.participant, '--participant', usage), values.work, values.consent),
);

const submitVerb = verb(
  'submit',
  'submit <study.json> --participant <id> [--no-grade]',
  "Submits the person's step and grades it in its container (--no-grade: leave it ungraded; a submit cut short is graded by the next study command).",
  { ...participant, 'no-grade': { type: 'boolean', default: false } },
  (io, path, values, usage) =>
    submit(io, loadStudy(path), requireOption(values.participant, '--participant', usage), !values['no-grade']),
);

const exportVerb = verb(
  'export',
  'export <study.json> --out <dir> [--results <file>]...',
  'rows.jsonl + rows.csv: one row per participant, task and step.',
  { out: { type: 'string' }, results: { type: 'string', multiple: true } },
  async (io, path, values, usage) => {
    const study = loadStudy(path);
    const out = resolve(io.cwd, requireOption(values.out, '--out', usage));
    const results = (values.results ?? []).map((r) => resolve(io.cwd, r));
    await gradeUngradedOfStudy(study.study.name, (l) => io.err(l));
    const summary = await exportStudy(study, out, results);
    io.out(`${summary.rows.length} row(s) of ${summary.participants} participant(s): ${summary.jsonl}, ${summary.csv}`);
    if (summary.withdrawn) io.err(`${summary.withdrawn} withdrawn participant(s) left out`);
    return 0;
  },
);

const reportVerb = verb(
  'report',
  'report <study.json | rows.jsonl> [--json] [--html <file>] [--pair A,B]...',
  'Resolve rates (Wilson 95%), paired McNemar, time on task.',
  { json: { type: 'boolean', default: false }, html: { type: 'string' }, pair: { type: 'string', multiple: true } },
  (io, path, values) => report(io, path, values),
);

const withdrawVerb = verb(
  'withdraw',
  'withdraw <study.json> --participant <id>',
  "Deletes a participant's work, records and session.",
  participant,
  async (io, path, values, usage) => {
    const study = loadStudy(path);
    const who = requireOption(values.participant, '--participant', usage);
    const deleted = await withdrawParticipant(study, who);
    for (const d of deleted) io.err(`deleted ${d}`);
    io.out(`withdrew '${who}' from ${study.study.name}: no export includes them from now on`);
    return 0;
  },
);

const packVerb = verb(
  'pack',
  'pack <study.json> --out <dir> [--participant <id>]',
  'A folder per participant to open with VS Code (no answers inside).',
  { out: { type: 'string' }, ...participant },
  async (io, path, values, usage) => {
    const study = loadStudy(path);
    const out = resolve(io.cwd, requireOption(values.out, '--out', usage));
    const made = await packStudy(study, out, { participant: values.participant, log: (l) => io.err(l) });
    for (const folder of made.folders) io.out(folder);
    io.out(
      `${made.folders.length} pack(s): each participant opens theirs in VS Code and runs "ChainLens: Start Study Session…"; they send back results/<id>.results.json, merged with: chainlens study export ${study.file} --out <dir> --results <file>`,
    );
    return 0;
  },
);

export const studyCommand = commandGroup(
  'study',
  intro,
  [validateVerb, startVerb, submitVerb, exportVerb, reportVerb, withdrawVerb, packVerb].map((c) => ({
    name: c.name.slice('study '.length),
    summary: c.usage.split('\n')[2].replace(/^./, (l) => l.toLowerCase()),
    load: async () => c,
  })),
);

function validate(io: CliIO, study: LoadedStudy): number {
  const s = study.study;
  io.out(
    `${study.file}: valid study '${s.name}': ${s.tasks.length} task(s), ${s.conditions.length} condition(s), ${s.participants.length} participant(s); feedback ${s.feedback}, ${s.mode} mode`,
  );
  if (s.assignment.kind === 'generated') io.out(`assignment generated with seed ${s.assignment.seed}:`);
  for (const [participant, tasks] of study.sessions)
    io.out(`  ${participant}: ${tasks.map((t) => `${t.task} (${t.condition})`).join(', ')}`);
  return 0;
}

async function start(
  io: CliIO,
  study: LoadedStudy,
  participant: string,
  work: string | undefined,
  consent: boolean,
): Promise<number> {
  let session = openSession(study, participant, work ? resolve(io.cwd, work) : undefined);
  if (study.study.consent && !session.consentedAt) {
    if (!consent) {
      io.out(study.study.consent);
      throw new UserError(
        'the study asks for consent first: read the text above, then start again with --consent',
        'usage',
      );
    }
    session = { ...session, consentedAt: new Date().toISOString() };
    saveSession(session);
  }
  // A submission a killed `study submit` left ungraded is graded before anything else.
  await gradeUngradedSubmissions(session, { log: (l) => io.err(l) });
  const started = await startNextTask(study, session, (l) => io.err(l));
  if (!started) {
    io.out(`'${participant}' has done every assigned task`);
    return 0;
  }
  const entry = started.session.tasks[started.index];
  const step = started.state.steps.find((x) => x.order === started.state.currentStep);
  io.out(
    `task ${started.index + 1} of ${started.session.tasks.length}: ${entry.task} (${entry.condition}) in ${started.workTree}`,
  );
  if (step) {
    // The participant has no window: the problem statement is what they solve from.
    const statement = started.chain.steps.find((s) => s.order === step.order)?.problemStatement;
    if (statement) io.out(`\nstep ${step.order}: problem statement\n\n${statement.trim()}\n`);
    io.out(
      `solve step ${step.order} (${step.instanceId}), then: chainlens study submit ${study.file} --participant ${participant}`,
    );
  }
  return 0;
}

async function submit(io: CliIO, study: LoadedStudy, participant: string, grade: boolean): Promise<number> {
  const session = openSession(study, participant);
  await gradeUngradedSubmissions(session, { log: (l) => io.err(l) });
  // A pack holds no hidden tests: its submissions are graded by the researcher (docs/study.md).
  const pack = study.study.pack;
  const done = await submitCurrentStep(session, { grade: grade && !pack, log: (l) => io.err(l) });
  const e = done.evaluation;
  // The study's feedback rule decides what the grade may say (docs/study.md "Blind solving").
  const said = e && gradeText(done.disclosure, outcomeOf(e));
  io.out(`submitted step ${done.submitted}${said === 'graded' ? ' and graded' : said ? `: ${said}` : ''}`);
  const results = await writePackResults(
    { file: study.file, name: study.study.name, resultsDir: pack?.resultsDir },
    done.session,
  );
  if (results) io.out(`your results so far: ${results} (send this file to the researcher)`);
  return 0;
}

function readRows(path: string): StudyRow[] {
  const text = readUserFile(path, 'rows file');
  const rows: StudyRow[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      problems.push(`${path}:${i + 1}: ${(e as Error).message}`);
      return;
    }
    const parsed = StudyRowSchema.safeParse(raw);
    if (parsed.success) rows.push(parsed.data);
    else problems.push(...describeIssues(`${path}:${i + 1}`, parsed.error));
  });
  if (problems.length) throw new UserError(`${path} holds rows that are not study rows`, 'input', problems);
  return rows;
}

async function report(
  io: CliIO,
  path: string,
  values: { json?: boolean; html?: string; pair?: string[] },
): Promise<number> {
  const pairs = values.pair?.map((p) => {
    const parts = p.split(',').map((x) => x.trim());
    if (parts.length !== 2 || !parts[0] || !parts[1])
      throw new UserError(`--pair takes two conditions, like AH,AA, not '${p}'`, 'usage');
    return [parts[0], parts[1]] as const;
  });
  const study = path.endsWith('.jsonl') ? null : loadStudy(path);
  const fileRows = study ? null : readRows(path);
  const known = study ? study.study.conditions.map((c) => c.name) : [...new Set(fileRows!.map((r) => r.condition))];
  // A condition the study does not have would be compared as zero outcomes, a result of nothing;
  // refused before anything is graded or written.
  for (const pair of pairs ?? []) {
    const unknown = pair.filter((c) => !known.includes(c));
    if (unknown.length)
      throw new UserError(
        `--pair ${pair.join(',')}: ${unknown.map((c) => `'${c}'`).join(' and ')} ${unknown.length > 1 ? 'are not conditions' : 'is not a condition'} of ${path} (its conditions: ${known.join(', ') || 'none'})`,
        'usage',
      );
  }
  let name: string;
  let rows: StudyRow[];
  if (!study) {
    rows = fileRows!;
    name = rows[0]?.study ?? 'study';
  } else {
    name = study.study.name;
    await gradeUngradedOfStudy(name, (l) => io.err(l));
    rows = (await collectRows(study)).rows;
  }
  const result = studyReport(name, rows, pairs);
  if (values.html) writeFileAtomic(resolve(io.cwd, values.html), reportHtmlPage(result), { shared: true });
  if (values.json)
    io.out(JSON.stringify(result, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2));
  else for (const line of reportText(result)) io.out(line);
  return 0;
}
