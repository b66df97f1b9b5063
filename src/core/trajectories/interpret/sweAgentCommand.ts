import type { FileTouch, LineRange, ToolCall } from '../../../protocol/trajectory';
import { analyseBash } from './bashCommand';
import { analyseEditorCall, editorCallFromArgs, EDITOR_TOOL_NAMES, type EditorCall } from './editorTool';
import { parseSweWindow, windowedEditFailed, type NumberedLines } from './observationText';
import type { RepoPaths } from './repoPaths';
import { parseShell, splitWords } from './shellWords';
import type { StepEffects, WorkspaceOp } from './stepEffects';

export interface SweAgentContext {
  paths: RepoPaths;
  cwd: string | null;
  /** The file SWE-agent's windowed tools currently show (for goto/scroll/edit). */
  openFile: string | null;
}

export interface SweAgentEffects extends StepEffects {
  openFile: string | null;
  cwd: string | null;
}

/**
 * SWE-agent's own commands (windowed `open`/`goto`/`scroll_*`/`create`/`edit a:b`/`search_*`/
 * `find_file`/`submit`, and `str_replace_editor`), from the command text or, in function-calling
 * runs, the recorded tool call. Anything else is a shell command.
 */
export function analyseSweAgentAction(
  action: string,
  tool: ToolCall | undefined,
  observation: string,
  ctx: SweAgentContext,
): SweAgentEffects {
  const firstLine = action.split('\n', 1)[0].trim();
  const words = splitWords(firstLine);
  const name = tool?.name ?? words[0] ?? '';
  const args = tool?.args ?? {};
  const keep = (e: StepEffects & { cwd?: string | null }, openFile = ctx.openFile): SweAgentEffects => ({
    ...e,
    openFile,
    cwd: e.cwd ?? ctx.cwd,
  });
  const window = parseSweWindow(observation);
  const resolve = (p: string) => ctx.paths.resolve(p, ctx.cwd);

  if (EDITOR_TOOL_NAMES.has(name)) {
    const call = tool ? editorCallFromArgs(args) : editorCallFromText(action);
    if (call) return keep(analyseEditorCall(call, observation, { paths: ctx.paths, cwd: ctx.cwd }));
  }
  switch (name) {
    case 'open': {
      const target = str(args.path) ?? words[1];
      if (!target) return keep({ kind: 'view', reason: '`open` without a file', touches: [], ops: [] });
      const path = window?.path ? resolve(window.path) : resolve(target);
      const found = window !== null;
      return keep(
        windowEffects(path, window, found ? `\`open\` shows ${path}` : `\`open\` could not open ${target}`),
        found ? path : ctx.openFile,
      );
    }
    case 'goto':
    case 'scroll_up':
    case 'scroll_down': {
      const path = window?.path ? resolve(window.path) : ctx.openFile;
      if (!path) return keep({ kind: 'view', reason: `\`${name}\` with no open file`, touches: [], ops: [] });
      return keep(windowEffects(path, window, `\`${name}\` moves the window in ${path}`), path);
    }
    case 'create': {
      const target = str(args.filename) ?? words[1];
      if (!target) break;
      const path = resolve(target);
      if (/already exists/.test(observation)) {
        return keep(
          {
            kind: 'create',
            reason: `\`create\` (${target} already exists; nothing changed)`,
            touches: [{ path, access: 'view', ranges: [] }],
            ops: [],
          },
          path,
        );
      }
      // SWE-agent's create writes a single empty line, then opens the file
      return keep(
        {
          kind: 'create',
          reason: '`create` makes a new file',
          touches: [{ path, access: 'create', ranges: [] }],
          ops: [{ type: 'write', path, content: '\n', created: true }],
        },
        path,
      );
    }
    case 'edit':
      return keep(windowedEdit(action, tool, observation, window, ctx));
    case 'insert': {
      const path = window?.path ? resolve(window.path) : ctx.openFile;
      const line = num(args.line);
      const text = str(args.text);
      if (!path || line === null || text === null || windowedEditFailed(observation)) {
        return keep({
          kind: 'edit',
          reason: '`insert` (could not follow)',
          touches: path ? [{ path, access: 'edit', ranges: [] }] : [],
          ops: path ? [{ type: 'untracked', path, reason: '`insert` whose line is unknown' }] : [],
        });
      }
      const ops: WorkspaceOp[] = [
        { type: 'insert', path, afterLine: line, text: text.endsWith('\n') ? text : text + '\n' },
      ];
      if (window) ops.push(windowView(path, window));
      return keep({
        kind: 'edit',
        reason: `\`insert\` after line ${line}`,
        touches: [{ path, access: 'edit', ranges: [{ start: line + 1, end: line + 1 }] }],
        ops,
      });
    }
    case 'search_file': {
      const target = str(args.file) ?? words[2];
      const path = target ? resolve(target) : ctx.openFile;
      const ranges = [...observation.matchAll(/^Line (\d+):/gm)]
        .slice(0, 100)
        .map((m) => ({ start: Number(m[1]), end: Number(m[1]) }));
      return keep({
        kind: 'search',
        reason: '`search_file` searches one file',
        touches: path ? [{ path, access: 'search', ranges }] : [],
        ops: [],
      });
    }
    case 'search_dir': {
      const touches: FileTouch[] = [...observation.matchAll(/^(\S[^\n]*?) \((\d+) matches\)\r?$/gm)]
        .slice(0, 50)
        .map((m) => ({ path: resolve(m[1]), access: 'search', ranges: [] }));
      return keep({ kind: 'search', reason: '`search_dir` searches a directory', touches, ops: [] });
    }
    case 'find_file':
      return keep({ kind: 'search', reason: '`find_file` looks for a file name', touches: [], ops: [] });
    case 'filemap': {
      const target = str(args.file_path) ?? words[1];
      return keep({
        kind: 'view',
        reason: '`filemap` outlines a file',
        touches: target ? [{ path: resolve(target), access: 'view', ranges: [] }] : [],
        ops: [],
      });
    }
    case 'submit': {
      const ops: WorkspaceOp[] = [];
      const text = observation.replace(/\r\n/g, '\n');
      if (/^\s*diff --git /.test(text) || text.trim() === '')
        ops.push({ type: 'recordedPatch', text: text.replace(/^\n+/, '') });
      return keep({ kind: 'submit', reason: '`submit`', touches: [], ops });
    }
    case 'bash':
      return keep(
        analyseBash(str(args.command) ?? action, { output: observation, exitCode: null, truncated: false }, ctx),
      );
  }
  return keep(analyseBash(action, { output: observation, exitCode: null, truncated: false }, ctx));
}

function windowEffects(path: string, window: NumberedLines | null, reason: string): StepEffects {
  const range: LineRange[] =
    window && window.lines.length ? [{ start: window.startLine, end: window.startLine + window.lines.length - 1 }] : [];
  return {
    kind: 'view',
    reason,
    touches: [{ path, access: 'view', ranges: range }],
    ops: window ? [windowView(path, window)] : [],
  };
}

function windowView(path: string, window: NumberedLines): WorkspaceOp {
  return {
    type: 'view',
    path,
    startLine: window.startLine,
    lines: window.lines,
    ...(window.totalLines !== undefined ? { totalLines: window.totalLines } : {}),
  };
}

/** `edit a:b` + replacement lines + `end_of_edit` (v0 text) or the edit tool call (v1). */
function windowedEdit(
  action: string,
  tool: ToolCall | undefined,
  observation: string,
  window: NumberedLines | null,
  ctx: SweAgentContext,
): StepEffects {
  const path = window?.path ? ctx.paths.resolve(window.path, ctx.cwd) : ctx.openFile;
  const args = tool?.args ?? {};
  const failed = windowedEditFailed(observation);
  if (typeof args.search === 'string') {
    // edit_replace bundle: search/replace in the open file
    if (!path) return { kind: 'edit', reason: '`edit` with no open file', touches: [], ops: [] };
    const ops: WorkspaceOp[] = failed
      ? []
      : [{ type: 'strReplace', path, oldStr: args.search, newStr: str(args.replace) ?? '' }];
    if (!failed && window) ops.push(windowView(path, window));
    return {
      kind: 'edit',
      reason: failed ? '`edit` search/replace (rejected; nothing changed)' : '`edit` search/replace',
      touches: [{ path, access: 'edit', ranges: [] }],
      ops,
    };
  }
  let start = num(args.start_line);
  let end = num(args.end_line);
  let replacement: string[] | null =
    typeof args.replacement_text === 'string' ? textLines(args.replacement_text) : null;
  if (start === null || end === null || replacement === null) {
    const m = /^edit\s+(\d+):(\d+)\s*$/.exec(action.split('\n', 1)[0].trim());
    if (m) {
      start = Number(m[1]);
      end = Number(m[2]);
      const body = action.split('\n').slice(1);
      const stop = body.findIndex((l) => l.replace(/\r$/, '') === 'end_of_edit');
      replacement = stop >= 0 ? body.slice(0, stop) : body.filter((l, k) => k < body.length - 1 || l !== '');
    }
  }
  if (start === null || end === null || replacement === null) {
    return {
      kind: 'edit',
      reason: '`edit` whose lines could not be read',
      touches: path ? [{ path, access: 'edit', ranges: [] }] : [],
      ops: path && !failed ? [{ type: 'untracked', path, reason: 'an `edit` command that could not be read' }] : [],
    };
  }
  if (!path) return { kind: 'edit', reason: `\`edit ${start}:${end}\` with no open file`, touches: [], ops: [] };
  const touches: FileTouch[] = [{ path, access: 'edit', ranges: [{ start, end: Math.max(start, end) }] }];
  if (failed)
    return {
      kind: 'edit',
      reason: `\`edit ${start}:${end}\` (rejected by the linter; nothing changed)`,
      touches,
      ops: [],
    };
  const ops: WorkspaceOp[] = [{ type: 'replaceLines', path, start, end, lines: replacement }];
  if (window) ops.push(windowView(path, window));
  return { kind: 'edit', reason: `\`edit ${start}:${end}\` replaces lines`, touches, ops };
}

/** `str_replace_editor str_replace /p --old_str '…' --new_str '…'` written as text. */
function editorCallFromText(action: string): EditorCall | null {
  const words = parseShell(action).flatMap((c) => c.words);
  const [, command, path] = words;
  if (!command || !path) return null;
  const call: EditorCall = { command, path };
  for (let i = 3; i < words.length; i++) {
    const flag = words[i];
    if (flag === '--view_range' && words[i + 2] !== undefined) {
      call.viewRange = [Number(words[i + 1]), Number(words[i + 2])];
      i += 2;
    } else if (flag === '--old_str') call.oldStr = words[++i];
    else if (flag === '--new_str') call.newStr = words[++i];
    else if (flag === '--file_text') call.fileText = words[++i];
    else if (flag === '--insert_line') call.insertLine = Number(words[++i]);
  }
  return call;
}

function textLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return null;
}
