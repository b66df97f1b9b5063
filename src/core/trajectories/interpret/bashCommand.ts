import type { ActionKind, FileTouch, LineRange } from '../../../protocol/trajectory';
import { parseNumberedLines, splitLines, type CommandOutput } from './observationText';
import type { RepoPaths } from './repoPaths';
import { parseSedInPlace } from './sedScript';
import { parseShell, type SimpleCommand } from './shellWords';
import { addTouch, type StepEffects, type WorkspaceOp } from './stepEffects';

export interface BashContext {
  paths: RepoPaths;
  cwd: string | null;
}

/** Higher wins when one command line mixes several things (`sed -i ... && pytest` is a test run). */
const KIND_RANK: Record<ActionKind, number> = {
  submit: 8,
  test: 7,
  create: 6,
  edit: 5,
  run: 4,
  view: 3,
  search: 2,
  think: 1,
  other: 0,
};

const SUBMIT_MARKERS = /\b(COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT)\b/;
const WRAPPERS = new Set(['sudo', 'time', 'nohup', 'env', 'command', 'exec', 'stdbuf']);
const SEARCH_COMMANDS = new Set([
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'find',
  'fd',
  'ls',
  'tree',
  'locate',
  'which',
  'wc',
  'du',
]);
const QUIET_COMMANDS = new Set([
  'cd',
  'export',
  'set',
  'source',
  '.',
  'mkdir',
  'true',
  'unset',
  'alias',
  'pushd',
  'popd',
]);
const TEST_RUNNERS = new Set(['pytest', 'py.test', 'tox', 'nox', 'trial']);
/** Commands that only reshape the output piped into them. */
const FILTERS = new Set([
  'head',
  'tail',
  'grep',
  'egrep',
  'fgrep',
  'sort',
  'uniq',
  'wc',
  'sed',
  'awk',
  'cut',
  'tr',
  'less',
  'more',
  'cat',
  'nl',
  'column',
  'jq',
]);

interface Verdict {
  kind: ActionKind;
  reason: string;
}

/**
 * What a shell command line did, from its text and (when separable) its output: the action kind
 * with a reason, the files it read or wrote, and the workspace operations the replay can follow.
 */
export interface BashEffects extends StepEffects {
  /** Working directory after the command (shells that persist across steps keep it). */
  cwd: string | null;
}

export function analyseBash(command: string, output: CommandOutput | null, ctx: BashContext): BashEffects {
  const touches: FileTouch[] = [];
  const ops: WorkspaceOp[] = [];
  let best: Verdict = { kind: 'other', reason: command.trim() ? 'command not recognised' : 'empty command' };
  const consider = (v: Verdict) => {
    if (KIND_RANK[v.kind] > KIND_RANK[best.kind]) best = v;
  };
  if (SUBMIT_MARKERS.test(command)) consider({ kind: 'submit', reason: 'mini-swe-agent submit marker' });

  const commands = parseShell(command);
  let cwd = ctx.cwd;
  const resolve = (p: string) => ctx.paths.resolve(p, cwd);
  const pipelines = toPipelines(commands);
  const producers = pipelines.filter((p) => producesOutput(p));
  const soleOutput =
    producers.length === 1 && output && !output.truncated && (output.exitCode === null || output.exitCode === 0)
      ? producers[0]
      : null;

  for (const pipeline of pipelines) {
    const first = pipeline[0];
    const words = unwrap(first.words);
    const name = baseName(words[0] ?? '');
    if (name === 'cd') {
      if (words[1] && !words[1].startsWith('-')) cwd = joinCwd(cwd ?? ctx.paths.root, words[1]);
      continue;
    }
    const ownsOutput = soleOutput === pipeline ? output : null;
    const view = readView(pipeline, ownsOutput, resolve);
    if (view) {
      consider({ kind: 'view', reason: view.reason });
      addTouch(touches, { path: view.path, access: 'view', ranges: view.range ? [view.range] : [] });
      if (view.op) ops.push(view.op);
      continue;
    }
    pipeline.forEach((cmd, k) => {
      // later stages of a pipe filter the output of the first (`find … | head`): they add nothing of their own
      const w = unwrap(cmd.words);
      if (
        k > 0 &&
        FILTERS.has(baseName(w[0] ?? '')) &&
        !w.slice(1).some((a) => !a.startsWith('-') && /[./]/.test(a)) &&
        !cmd.redirects.length
      )
        return;
      handleCommand(cmd, pipeline.length > 1, ownsOutput, resolve, touches, ops, consider);
    });
  }
  return { kind: best.kind, reason: best.reason, touches, ops, cwd };
}

function handleCommand(
  cmd: SimpleCommand,
  inPipe: boolean,
  output: CommandOutput | null,
  resolve: (p: string) => string,
  touches: FileTouch[],
  ops: WorkspaceOp[],
  consider: (v: Verdict) => void,
): void {
  const words = unwrap(cmd.words);
  const name = baseName(words[0] ?? '');
  const args = words.slice(1);
  const fileArgs = args.filter((a) => !a.startsWith('-') && looksLikePath(a));
  const writes = cmd.redirects.filter(
    (r) => (r.op === '>' || r.op === '>>' || r.op === '&>') && !r.target.startsWith('/dev/'),
  );

  // output redirected into a file: a heredoc or echo we can read, anything else we cannot
  for (const r of writes) {
    const path = resolve(r.target);
    const content = r.op === '>' ? writtenContent(name, args, cmd) : null;
    if (content !== null) {
      ops.push({ type: 'write', path, content, created: null });
      addTouch(touches, { path, access: 'create', ranges: [] });
      consider({ kind: 'create', reason: `\`${name}\` writes ${path}` });
    } else {
      ops.push({ type: 'untracked', path, reason: `\`${name} ${r.op} ${r.target}\` wrote output we cannot see` });
      addTouch(touches, { path, access: 'edit', ranges: [] });
      consider({ kind: 'edit', reason: `\`${name}\` output redirected into ${path}` });
    }
  }
  if (name === 'tee' && fileArgs.length) {
    for (const f of fileArgs) {
      const path = resolve(f);
      if (cmd.heredoc !== null && !args.includes('-a'))
        ops.push({ type: 'write', path, content: cmd.heredoc, created: null });
      else ops.push({ type: 'untracked', path, reason: '`tee` wrote piped output' });
      addTouch(touches, { path, access: 'create', ranges: [] });
    }
    consider({ kind: 'create', reason: '`tee` writes a file' });
    return;
  }

  if (name === 'sed') {
    const sed = parseSedInPlace(words);
    if (sed === 'not-in-place') {
      fileArgs.slice(1).forEach((f) => addTouch(touches, { path: resolve(f), access: 'view', ranges: [] }));
      consider({ kind: 'view', reason: '`sed` prints a file' });
      return;
    }
    const files = sed ? sed.files : fileArgs.slice(1);
    for (const f of files) {
      const path = resolve(f);
      const ranges: LineRange[] = [];
      if (sed) {
        for (const s of sed.substitutions) {
          ops.push({ type: 'substitute', path, range: s.range, apply: s.apply, describe: s.describe });
          if (s.range && s.range.start > 0) ranges.push({ start: s.range.start, end: s.range.end ?? s.range.start });
        }
      } else ops.push({ type: 'untracked', path, reason: 'a `sed -i` script other than simple s/// substitutions' });
      addTouch(touches, { path, access: 'edit', ranges });
    }
    consider({ kind: 'edit', reason: '`sed -i` edits in place' });
    return;
  }
  if (name === 'rm' || name === 'unlink') {
    for (const f of fileArgs) {
      const path = resolve(f);
      ops.push({ type: 'delete', path });
      addTouch(touches, { path, access: 'delete', ranges: [] });
    }
    consider({ kind: 'run', reason: `\`${name}\` removes ${fileArgs.join(' ') || 'files'}` });
    return;
  }
  if (name === 'mv' || name === 'cp') {
    if (fileArgs.length >= 2) {
      const target = resolve(fileArgs[fileArgs.length - 1]);
      ops.push({ type: 'untracked', path: target, reason: `\`${name}\` replaced it` });
      addTouch(touches, { path: target, access: 'edit', ranges: [] });
      if (name === 'mv')
        for (const f of fileArgs.slice(0, -1)) {
          ops.push({ type: 'delete', path: resolve(f) });
          addTouch(touches, { path: resolve(f), access: 'delete', ranges: [] });
        }
    }
    consider({ kind: 'edit', reason: `\`${name}\` moves or copies files` });
    return;
  }
  if (name === 'touch') {
    fileArgs.forEach((f) => addTouch(touches, { path: resolve(f), access: 'create', ranges: [] }));
    consider({ kind: 'create', reason: '`touch` creates files' });
    return;
  }
  if (
    name === 'patch' ||
    (name === 'git' &&
      /^(apply|am|checkout|restore|reset|stash|pull|merge|rebase|clean|revert|cherry-pick|switch)$/.test(args[0] ?? ''))
  ) {
    const dash = args.indexOf('--');
    const targets = dash >= 0 ? args.slice(dash + 1) : [];
    if (targets.length)
      targets.forEach((t) =>
        ops.push({ type: 'untracked', path: resolve(t), reason: `\`${name} ${args[0]}\` changed it` }),
      );
    else
      ops.push({ type: 'untracked', path: '*', reason: `\`${[name, args[0]].join(' ')}\` changed the working tree` });
    consider({
      kind: 'edit',
      reason: `\`${name} ${name === 'git' ? args[0] : ''}\` changes the working tree`.replace(' `', '`'),
    });
    return;
  }
  if (name === 'git') {
    const sub = args[0] ?? '';
    if (sub === 'diff' && !inPipe && output && args.slice(1).every((a) => a.startsWith('-') || a === 'HEAD')) {
      if (!args.includes('--stat') && !args.includes('--name-only'))
        ops.push({ type: 'recordedPatch', text: output.output });
    }
    if (['diff', 'status', 'log', 'show', 'blame'].includes(sub))
      consider({ kind: 'view', reason: `\`git ${sub}\` reads repository state` });
    else if (sub === 'grep') consider({ kind: 'search', reason: '`git grep` searches' });
    else consider({ kind: 'run', reason: `\`git ${sub}\`` });
    return;
  }
  const test = testVerdict(name, args);
  if (test) {
    consider(test);
    fileArgs
      .filter((f) => /\.py$|\//.test(f))
      .forEach((f) => addTouch(touches, { path: resolve(f.split('::')[0]), access: 'run', ranges: [] }));
    return;
  }
  if (
    /^python[0-9.]*$/.test(name) ||
    name === 'node' ||
    name === 'bash' ||
    name === 'sh' ||
    name === 'ruby' ||
    name === 'go' ||
    name === 'cargo' ||
    name === 'make' ||
    name === 'npm'
  ) {
    const script = args.find((a) => !a.startsWith('-'));
    if (script && /\.(py|js|sh|rb)$/.test(script) && !args.includes('-c'))
      addTouch(touches, { path: resolve(script), access: 'run', ranges: [] });
    consider({
      kind: 'run',
      reason: script && !args.includes('-c') && !args.includes('-') ? `runs \`${name} ${script}\`` : `runs \`${name}\``,
    });
    return;
  }
  if (SEARCH_COMMANDS.has(name)) {
    consider({ kind: 'search', reason: `\`${name}\` searches or lists files` });
    if (name !== 'find' && name !== 'ls' && name !== 'tree' && name !== 'fd')
      for (const t of grepTouches(name, args, output, resolve)) addTouch(touches, t);
    return;
  }
  if (['cat', 'head', 'tail', 'less', 'more', 'nl', 'awk', 'bat'].includes(name)) {
    (name === 'awk' ? fileArgs.slice(1) : fileArgs).forEach((f) =>
      addTouch(touches, { path: resolve(f), access: 'view', ranges: [] }),
    );
    consider({ kind: 'view', reason: `\`${name}\` prints a file` });
    return;
  }
  if (name === 'echo' || name === 'printf') {
    consider({
      kind: writes.length ? 'create' : 'other',
      reason: writes.length ? `\`${name}\` writes a file` : `\`${name}\` prints text`,
    });
    return;
  }
  if (name === 'submit') {
    consider({ kind: 'submit', reason: '`submit`' });
    return;
  }
  if (QUIET_COMMANDS.has(name) || name === '') return;
  if (/^(pip[0-9.]*|conda|apt|apt-get|poetry|uv)$/.test(name)) {
    consider({ kind: 'run', reason: `\`${name}\` installs packages` });
    return;
  }
  consider({ kind: 'run', reason: `runs \`${name}\`` });
}

/** `pytest …`, `python -m pytest`, `tox`, Django's runtests, `go test`, `npm test`, … */
function testVerdict(name: string, args: string[]): Verdict | null {
  if (TEST_RUNNERS.has(name)) return { kind: 'test', reason: `runs \`${name}\`` };
  if (/^python[0-9.]*$/.test(name)) {
    const m = args.indexOf('-m');
    if (m >= 0 && /^(pytest|unittest|nose|nose2|tox)$/.test(args[m + 1] ?? ''))
      return { kind: 'test', reason: `runs \`python -m ${args[m + 1]}\`` };
    const script = args.find((a) => !a.startsWith('-'));
    if (
      script &&
      /(^|\/)(runtests\.py|manage\.py)$/.test(script) &&
      (script.endsWith('runtests.py') || args.includes('test'))
    )
      return { kind: 'test', reason: `runs the project's test runner (${script})` };
    if (script && /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(script) && /(^|\/)tests?\//.test(script))
      return { kind: 'test', reason: `runs test file ${script}` };
    return null;
  }
  if (/(^|\/)runtests(\.py)?$/.test(name) || name === 'django-admin')
    return { kind: 'test', reason: `runs \`${name}\`` };
  if (
    (name === 'go' ||
      name === 'cargo' ||
      name === 'npm' ||
      name === 'yarn' ||
      name === 'pnpm' ||
      name === 'make' ||
      name === 'mvn' ||
      name === 'gradle') &&
    args.includes('test')
  )
    return { kind: 'test', reason: `runs \`${name} test\`` };
  if (name === 'bin/test' || name === 'test.sh') return { kind: 'test', reason: `runs \`${name}\`` };
  return null;
}

interface ViewRead {
  path: string;
  range: LineRange | null;
  op: WorkspaceOp | null;
  reason: string;
}

/**
 * Pipelines that print part of one file: `cat f`, `cat -n f`, `sed -n 'a,bp' f`, `nl -ba f | sed
 * -n 'a,bp'`, `head -n N f`. When the pipeline owns the step's output, the printed lines become a
 * view of the file.
 */
function readView(
  pipeline: SimpleCommand[],
  output: CommandOutput | null,
  resolve: (p: string) => string,
): ViewRead | null {
  if (pipeline.some((c) => c.redirects.some((r) => r.op !== '2>'))) return null;
  const w0 = unwrap(pipeline[0].words);
  const name = baseName(w0[0] ?? '');
  const opts = w0.slice(1).filter((a) => a.startsWith('-'));
  const files = w0.slice(1).filter((a) => !a.startsWith('-'));
  const lastSed = pipeline.length === 2 ? sedPrintRange(unwrap(pipeline[1].words), false) : null;
  if (pipeline.length > 2 || (pipeline.length === 2 && !lastSed)) return null;

  if (pipeline.length === 1 && name === 'cat' && files.length === 1 && opts.every((o) => o === '-n')) {
    const path = resolve(files[0]);
    if (opts.includes('-n')) {
      const listed = output ? parseNumberedLines(output.output) : null;
      return {
        path,
        range: listed ? rangeOf(listed.startLine, listed.lines.length) : null,
        op: listed ? { type: 'view', path, startLine: listed.startLine, lines: listed.lines } : null,
        reason: '`cat -n` prints a file',
      };
    }
    if (!output) return { path, range: null, op: null, reason: '`cat` prints a file' };
    const { lines, endsWithNewline } = splitLines(output.output);
    return {
      path,
      range: lines.length ? rangeOf(1, lines.length) : null,
      op: { type: 'view', path, startLine: 1, lines, wholeFile: true, totalLines: lines.length, endsWithNewline },
      reason: '`cat` prints a file',
    };
  }
  if (pipeline.length === 1 && name === 'sed') {
    const r = sedPrintRange(w0, true);
    if (!r || !r.file) return null;
    const path = resolve(r.file);
    const lines = output ? splitLines(output.output).lines : null;
    return {
      path,
      range: { start: r.start, end: r.end },
      op: lines && lines.length <= r.end - r.start + 1 ? { type: 'view', path, startLine: r.start, lines } : null,
      reason: `\`sed -n '${r.start},${r.end}p'\` prints lines ${r.start}-${r.end}`,
    };
  }
  if (
    pipeline.length === 2 &&
    lastSed &&
    files.length === 1 &&
    ((name === 'nl' && opts.some((o) => o.includes('ba'))) || (name === 'cat' && opts.includes('-n')))
  ) {
    const path = resolve(files[0]);
    const listed = output ? parseNumberedLines(output.output) : null;
    const op: WorkspaceOp | null =
      listed && listed.startLine === lastSed.start
        ? { type: 'view', path, startLine: listed.startLine, lines: listed.lines }
        : null;
    return {
      path,
      range: { start: lastSed.start, end: lastSed.end },
      op,
      reason: `\`${name}\` + \`sed -n\` prints lines ${lastSed.start}-${lastSed.end}`,
    };
  }
  if (pipeline.length === 1 && name === 'head' && files.length === 1) {
    const n = headCount(w0);
    if (n === null) return null;
    const path = resolve(files[0]);
    const lines = output ? splitLines(output.output).lines : null;
    const op: WorkspaceOp | null = lines
      ? {
          type: 'view',
          path,
          startLine: 1,
          lines,
          ...(lines.length < n ? { totalLines: lines.length, wholeFile: true } : {}),
        }
      : null;
    return { path, range: { start: 1, end: n }, op, reason: `\`head\` prints the first ${n} lines` };
  }
  return null;
}

/** `sed -n 'a,bp' [file]` (or `'ap'`). */
function sedPrintRange(words: string[], needFile: boolean): { start: number; end: number; file: string | null } | null {
  if (baseName(words[0] ?? '') !== 'sed' || !words.includes('-n')) return null;
  const rest = words.slice(1).filter((w) => w !== '-n');
  const script = rest[0];
  const m = script ? /^(\d+)(?:,(\d+))?p$/.exec(script.trim()) : null;
  if (!m) return null;
  const file = rest[1] ?? null;
  if (needFile && (!file || rest.length > 2)) return null;
  const start = Number(m[1]);
  return { start, end: m[2] ? Number(m[2]) : start, file };
}

function headCount(words: string[]): number | null {
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === '-n' && /^\d+$/.test(words[i + 1] ?? '')) return Number(words[i + 1]);
    const m = /^-n?(\d+)$/.exec(w);
    if (m) return Number(m[1]);
  }
  return words.length === 2 ? 10 : null;
}

function rangeOf(start: number, count: number): LineRange {
  return { start, end: Math.max(start, start + count - 1) };
}

/** Content a redirect writes when the command text says it: `cat <<EOF > f`, `echo text > f`. */
function writtenContent(name: string, args: string[], cmd: SimpleCommand): string | null {
  if (name === 'cat' && cmd.heredoc !== null && args.filter((a) => !a.startsWith('-')).length === 0) return cmd.heredoc;
  if (name === 'echo' && !args.some((a) => /^-[neE]+$/.test(a))) return args.join(' ') + '\n';
  return null;
}

/** grep-like commands: the files named, with the matching lines when `-n` output shows them. */
function grepTouches(
  name: string,
  args: string[],
  output: CommandOutput | null,
  resolve: (p: string) => string,
): FileTouch[] {
  const operands = args.filter((a) => !a.startsWith('-'));
  const targets = (
    name === 'grep' || name === 'egrep' || name === 'fgrep' || name === 'rg' || name === 'ag' || name === 'ack'
      ? operands.slice(1)
      : operands
  ).filter(looksLikePath);
  const byPath = new Map<string, LineRange[]>();
  const single =
    targets.length === 1 && /\.[A-Za-z][A-Za-z0-9]*$/.test(targets[0]) && resolve(targets[0]) !== '.'
      ? resolve(targets[0])
      : null;
  if (output && (args.some((a) => /^-[A-Za-z]*n/.test(a)) || name === 'rg')) {
    for (const row of output.output.split('\n').slice(0, 500)) {
      const multi = /^([^:\s][^:]*):(\d+):/.exec(row);
      const one = /^(\d+):/.exec(row);
      if (single && one)
        byPath.set(single, [...(byPath.get(single) ?? []), { start: Number(one[1]), end: Number(one[1]) }]);
      else if (multi && !single) {
        const p = resolve(multi[1]);
        byPath.set(p, [...(byPath.get(p) ?? []), { start: Number(multi[2]), end: Number(multi[2]) }]);
      }
    }
  }
  if (single && !byPath.has(single)) byPath.set(single, []);
  return [...byPath]
    .slice(0, 50)
    .map(([path, ranges]) => ({ path, access: 'search' as const, ranges: ranges.slice(0, 100) }));
}

function toPipelines(commands: SimpleCommand[]): SimpleCommand[][] {
  const out: SimpleCommand[][] = [];
  let current: SimpleCommand[] = [];
  for (const c of commands) {
    current.push(c);
    if (c.next !== '|') {
      out.push(current);
      current = [];
    }
  }
  if (current.length) out.push(current);
  return out;
}

function producesOutput(pipeline: SimpleCommand[]): boolean {
  const last = pipeline[pipeline.length - 1];
  const name = baseName(unwrap(last.words)[0] ?? '');
  if (QUIET_COMMANDS.has(name) || name === '') return false;
  if (last.redirects.some((r) => r.op === '>' || r.op === '>>' || r.op === '&>')) return false;
  if (
    (name === 'git' && ['add', 'commit'].includes(unwrap(last.words)[1] ?? '')) ||
    name === 'rm' ||
    name === 'touch' ||
    name === 'cp' ||
    name === 'mv'
  )
    return false;
  if (name === 'sed' && unwrap(last.words).some((w) => w.startsWith('-i'))) return false;
  return true;
}

function unwrap(words: string[]): string[] {
  let i = 0;
  while (i < words.length && WRAPPERS.has(words[i])) i++;
  if (words[i] === 'timeout') {
    i++;
    while (i < words.length && (words[i].startsWith('-') || /^\d+[smh]?$/.test(words[i]))) i++;
  }
  return words.slice(i);
}

function baseName(word: string): string {
  if (/^\.?\/?(bin\/test|tests\/runtests\.py|runtests\.py)$/.test(word)) return word.replace(/^\.\//, '');
  const slash = word.lastIndexOf('/');
  return slash >= 0 && !word.startsWith('./') ? word.slice(slash + 1) : word.replace(/^\.\//, '');
}

function looksLikePath(arg: string): boolean {
  return arg !== '' && !arg.includes('$(') && !arg.includes('`') && !/^[<>|&;]/.test(arg) && !arg.includes('*');
}

function joinCwd(cwd: string | null, dir: string): string | null {
  if (dir.startsWith('/')) return dir;
  if (!cwd) return null;
  return `${cwd}/${dir}`;
}
