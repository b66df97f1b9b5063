import type { FileTouch, LineRange } from '../../../protocol/trajectory';
import {
  editorCommandFailed,
  isDirectoryListing,
  parseCatNListing,
  splitLines,
  type NumberedLines,
} from './observationText';
import type { RepoPaths } from './repoPaths';
import type { StepEffects, WorkspaceOp } from './stepEffects';

/**
 * The Anthropic-style file editor that SWE-agent (`str_replace_editor`), OpenHands V0
 * (`str_replace_editor`, read/edit actions) and the OpenHands SDK (`file_editor`) share:
 * view / create / str_replace / insert / undo_edit on one path.
 */
export interface EditorCall {
  command: string;
  path: string;
  viewRange?: [number, number];
  oldStr?: string;
  newStr?: string;
  insertLine?: number;
  fileText?: string;
}

export interface EditorContext {
  paths: RepoPaths;
  cwd: string | null;
  /** The tool said whether the file existed before (OpenHands prev_exist); null when unknown. */
  created?: boolean | null;
  /** The tool flagged the call as failed (OpenHands SDK is_error). */
  isError?: boolean | null;
  /** Full file content before/after the edit, when the observation carries it (OpenHands SDK). */
  contentBefore?: string | null;
  contentAfter?: string | null;
}

export const EDITOR_TOOL_NAMES = new Set([
  'str_replace_editor',
  'file_editor',
  'edit_file',
  'str_replace_based_edit_tool',
]);

export function editorCallFromArgs(args: Record<string, unknown>): EditorCall | null {
  const command = typeof args.command === 'string' ? args.command : null;
  const path = typeof args.path === 'string' ? args.path : null;
  if (!command || !path) return null;
  const call: EditorCall = { command, path };
  const vr = parseRange(args.view_range);
  if (vr) call.viewRange = vr;
  if (typeof args.old_str === 'string') call.oldStr = args.old_str;
  if (typeof args.new_str === 'string') call.newStr = args.new_str;
  if (typeof args.file_text === 'string') call.fileText = args.file_text;
  const il =
    typeof args.insert_line === 'number'
      ? args.insert_line
      : typeof args.insert_line === 'string'
        ? Number(args.insert_line)
        : NaN;
  if (Number.isInteger(il)) call.insertLine = il;
  return call;
}

function parseRange(value: unknown): [number, number] | null {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number'))
    return [v[0] as number, v[1] as number];
  return null;
}

export function analyseEditorCall(call: EditorCall, observation: string, ctx: EditorContext): StepEffects {
  const path = ctx.paths.resolve(call.path, ctx.cwd);
  const failed = ctx.isError === true || (ctx.isError == null && editorCommandFailed(observation));
  const touches: FileTouch[] = [];
  const ops: WorkspaceOp[] = [];
  const why = (what: string) => (failed ? `${what} (the tool reported an error; nothing changed)` : what);

  switch (call.command) {
    case 'view': {
      if (isDirectoryListing(observation)) return { kind: 'search', reason: 'editor lists a directory', touches, ops };
      const listing = failed ? null : parseCatNListing(observation);
      const whole = !!listing && !call.viewRange && !listing.clipped && listing.startLine === 1;
      let endsWithNewline: boolean | undefined;
      if (listing && whole) {
        // the editor splits the whole text on "\n": a file ending in a newline shows one extra, empty numbered line
        endsWithNewline = listing.lines.at(-1) === '';
        if (endsWithNewline) listing.lines = listing.lines.slice(0, -1);
      }
      const range: LineRange | null = call.viewRange
        ? {
            start: Math.max(1, call.viewRange[0]),
            end:
              call.viewRange[1] > 0
                ? call.viewRange[1]
                : Math.max(1, (listing?.startLine ?? 1) + (listing?.lines.length ?? 1) - 1),
          }
        : listing && listing.lines.length
          ? { start: listing.startLine, end: listing.startLine + listing.lines.length - 1 }
          : null;
      touches.push({ path, access: 'view', ranges: range ? [range] : [] });
      if (listing) {
        ops.push({
          type: 'view',
          path,
          startLine: listing.startLine,
          lines: listing.lines,
          ...(whole ? { wholeFile: true, totalLines: listing.lines.length, endsWithNewline } : {}),
        });
      }
      return {
        kind: 'view',
        reason: why(
          call.viewRange
            ? `editor views lines ${call.viewRange[0]}-${call.viewRange[1] < 0 ? 'end' : call.viewRange[1]}`
            : 'editor views a file',
        ),
        touches,
        ops,
      };
    }
    case 'create': {
      const content = call.fileText ?? '';
      const { lines } = splitLines(content);
      touches.push({ path, access: 'create', ranges: lines.length ? [{ start: 1, end: lines.length }] : [] });
      if (!failed) ops.push({ type: 'write', path, content, created: ctx.created === undefined ? true : ctx.created });
      return { kind: 'create', reason: why('editor creates a file'), touches, ops };
    }
    case 'str_replace': {
      const snippet = editSnippet(observation);
      const range =
        snippet && call.newStr !== undefined ? locateInSnippet(snippet.startLine, snippet.lines, call.newStr) : null;
      touches.push({ path, access: 'edit', ranges: range ? [range] : [] });
      if (!failed) {
        if (ctx.contentBefore != null) ops.push({ type: 'contentBefore', path, content: ctx.contentBefore });
        ops.push({
          type: 'strReplace',
          path,
          oldStr: call.oldStr ?? '',
          newStr: call.newStr ?? '',
          ...(snippet ? { snippet: { startLine: snippet.startLine, lines: snippet.lines } } : {}),
        });
        pushAfter(ops, path, ctx);
      }
      return { kind: 'edit', reason: why('editor replaces text (str_replace)'), touches, ops };
    }
    case 'insert': {
      const lines = splitLines(call.newStr ?? '').lines;
      const after = call.insertLine ?? 0;
      touches.push({
        path,
        access: 'edit',
        ranges: lines.length ? [{ start: after + 1, end: after + lines.length }] : [],
      });
      if (!failed) {
        if (ctx.contentBefore != null) ops.push({ type: 'contentBefore', path, content: ctx.contentBefore });
        ops.push({ type: 'insert', path, afterLine: after, text: call.newStr ?? '' });
        pushAfter(ops, path, ctx);
      }
      return { kind: 'edit', reason: why(`editor inserts after line ${after}`), touches, ops };
    }
    case 'undo_edit':
      touches.push({ path, access: 'edit', ranges: [] });
      if (!failed) ops.push({ type: 'undo', path });
      return { kind: 'edit', reason: why('editor undoes its last edit'), touches, ops };
    default:
      return { kind: 'other', reason: `editor command "${call.command}"`, touches, ops };
  }
}

/**
 * The post-edit excerpt an edit prints. Some editors read it with its final newline and show an
 * extra empty numbered line; a trailing empty line is dropped rather than trusted.
 */
function editSnippet(observation: string): NumberedLines | null {
  const snippet = parseCatNListing(observation);
  if (snippet && snippet.lines.length > 1 && snippet.lines.at(-1) === '') snippet.lines = snippet.lines.slice(0, -1);
  return snippet;
}

function pushAfter(ops: WorkspaceOp[], path: string, ctx: EditorContext): void {
  if (ctx.contentAfter == null) return;
  const { lines, endsWithNewline } = splitLines(ctx.contentAfter);
  ops.push({ type: 'view', path, startLine: 1, lines, wholeFile: true, totalLines: lines.length, endsWithNewline });
}

/** Lines of a post-edit snippet that hold `text` (the new_str), if it is there exactly once. */
export function locateInSnippet(startLine: number, lines: string[], text: string): LineRange | null {
  if (!text) return null;
  const joined = lines.join('\n');
  const at = joined.indexOf(text);
  if (at < 0 || joined.indexOf(text, at + 1) >= 0) return null;
  const first = countNewlines(joined, 0, at);
  const last = first + countNewlines(text, 0, text.length) - (text.endsWith('\n') ? 1 : 0);
  return { start: startLine + first, end: startLine + Math.max(first, last) };
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}
