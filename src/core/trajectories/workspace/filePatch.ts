import { structuredPatch } from 'diff';
import { segLength, type FileModel } from './fileModel';

const CONTEXT = 3;

export interface FileDiff {
  /** git-style diff of this file against base ('' when unchanged). */
  text: string;
  /** Why (part of) the change could not be derived; null when `text` is exact. */
  gap: string | null;
}

interface Region {
  /** Deleted base lines baseStart..baseEnd (baseEnd = baseStart - 1 when nothing was deleted). */
  baseStart: number;
  baseEnd: number;
  /** Current line where the region's new lines start. */
  curStart: number;
  newLines: string[];
}

/**
 * The diff of one file against its base, computed only where both sides are known: a change whose
 * replaced base lines were never seen is a gap, not a guess. Context lines are those of the base
 * that were seen (up to 3, as git prints).
 */
export function diffFile(model: FileModel): FileDiff {
  const { path, base } = model;
  if (model.detached) return { text: '', gap: `${path}: changed in a way that cannot be followed (${model.detached})` };
  if (model.exists === false) {
    if (base.exists === false) return { text: '', gap: null };
    const all = allBaseLines(model);
    if (!all)
      return {
        text: '',
        gap:
          base.exists === null
            ? `${path}: removed; whether it existed before is unknown`
            : `${path}: removed, but its content was never fully seen`,
      };
    const body = all.map((l) => '-' + l);
    if (base.endsWithNewline === false && body.length) body.push('\\ No newline at end of file');
    return {
      text:
        header(path, 'deleted') +
        (all.length ? `@@ -1${all.length === 1 ? '' : ',' + all.length} +0,0 @@\n` + body.join('\n') + '\n' : ''),
      gap: null,
    };
  }
  if (base.exists === false) {
    const text = model.fullText();
    if (text === null) return { text: '', gap: `${path}: created, but part of its content is unknown` };
    const lines = text === '' ? [] : (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
    const body = lines.map((l) => '+' + l);
    if (!text.endsWith('\n') && body.length) body.push('\\ No newline at end of file');
    return {
      text:
        header(path, 'new') +
        (lines.length ? `@@ -0,0 +1${lines.length === 1 ? '' : ',' + lines.length} @@\n` + body.join('\n') + '\n' : ''),
      gap: null,
    };
  }

  const regions = changeRegions(model);
  if (regions === null) return { text: '', gap: `${path}: part of the file has unknown content` };
  if (regions.length === 0) return { text: '', gap: null };
  const hunks: string[] = [];
  const gaps: string[] = [];
  for (const group of groupRegions(model, regions)) {
    const rendered = renderGroup(model, group);
    if (typeof rendered === 'string') hunks.push(rendered);
    else gaps.push(rendered.gap);
  }
  const text = hunks.length ? header(path, 'modified') + hunks.join('') : '';
  return { text, gap: gaps.length ? `${path}: ${gaps.join('; ')}` : null };
}

function header(path: string, kind: 'new' | 'deleted' | 'modified'): string {
  if (kind === 'new') return `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n`;
  if (kind === 'deleted')
    return `diff --git a/${path} b/${path}\ndeleted file mode 100644\n--- a/${path}\n+++ /dev/null\n`;
  return `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n`;
}

function allBaseLines(model: FileModel): string[] | null {
  const { total, lines } = model.base;
  if (total === null) return null;
  const out: string[] = [];
  for (let b = 1; b <= total; b++) {
    const t = lines.get(b);
    if (t === undefined) return null;
    out.push(t);
  }
  return out;
}

/** Walk the piece table: base lines missing between base segments were deleted, text was inserted. */
function changeRegions(model: FileModel): Region[] | null {
  const regions: Region[] = [];
  let nextBase = 1;
  let cur = 1;
  let open: Region | null = null;
  const openAt = (): Region => {
    if (!open) {
      open = { baseStart: nextBase, baseEnd: nextBase - 1, curStart: cur, newLines: [] };
      regions.push(open);
    }
    return open;
  };
  for (const s of model.segments) {
    if (s.kind === 'unknown') return null;
    if (s.kind === 'text') {
      openAt().newLines.push(...s.lines);
      cur += s.lines.length;
      continue;
    }
    if (s.from > nextBase) {
      const r = openAt();
      r.baseEnd = s.from - 1;
    }
    open = null;
    nextBase = s.to === null ? Infinity : s.to + 1;
    cur += segLength(s) ?? 0;
  }
  if (Number.isFinite(nextBase)) {
    const total = model.base.total;
    if (total === null) {
      // the tail after the last kept base line: unknown whether base had more lines there
      if (model.segments.length === 0 || model.segments.at(-1)?.kind === 'text') {
        const r = openAt();
        r.baseEnd = Number.POSITIVE_INFINITY;
      }
    } else if (nextBase <= total) {
      openAt().baseEnd = total;
    }
  }
  return regions.filter((r) => r.baseEnd >= r.baseStart || r.newLines.length > 0);
}

/** Regions close enough that their context overlaps become one window, as git merges hunks. */
function groupRegions(model: FileModel, regions: Region[]): Region[][] {
  const groups: Region[][] = [];
  for (const r of regions) {
    const last = groups.at(-1)?.at(-1);
    if (
      last &&
      Number.isFinite(last.baseEnd) &&
      r.baseStart - last.baseEnd - 1 <= 2 * CONTEXT &&
      knownRange(model, last.baseEnd + 1, r.baseStart - 1)
    )
      groups.at(-1)!.push(r);
    else groups.push([r]);
  }
  return groups;
}

function knownRange(model: FileModel, from: number, to: number): boolean {
  for (let b = from; b <= to; b++) if (!model.base.lines.has(b)) return false;
  return true;
}

function renderGroup(model: FileModel, group: Region[]): string | { gap: string } {
  const { base } = model;
  const first = group[0];
  const last = group[group.length - 1];
  if (!Number.isFinite(last.baseEnd)) return { gap: 'rewritten without its previous content being known' };
  for (const r of group) {
    for (let b = r.baseStart; b <= r.baseEnd; b++) {
      if (!base.lines.has(b)) return { gap: `lines ${r.baseStart}-${r.baseEnd} were replaced without being seen` };
    }
  }
  let pre = 0;
  while (pre < CONTEXT && first.baseStart - pre - 1 >= 1 && base.lines.has(first.baseStart - pre - 1)) pre++;
  let post = 0;
  while (
    post < CONTEXT &&
    base.lines.has(last.baseEnd + post + 1) &&
    (base.total === null || last.baseEnd + post + 1 <= base.total)
  )
    post++;

  const oldStart = first.baseStart - pre;
  const oldLines: string[] = [];
  const newLines: string[] = [];
  for (let b = oldStart; b < first.baseStart; b++) {
    oldLines.push(base.lines.get(b)!);
    newLines.push(base.lines.get(b)!);
  }
  group.forEach((r, k) => {
    for (let b = r.baseStart; b <= r.baseEnd; b++) oldLines.push(base.lines.get(b)!);
    newLines.push(...r.newLines);
    const next = group[k + 1];
    const until = next ? next.baseStart - 1 : last.baseEnd + post;
    for (let b = r.baseEnd + 1; b <= until; b++) {
      oldLines.push(base.lines.get(b)!);
      newLines.push(base.lines.get(b)!);
    }
  });
  const newStart = first.curStart - pre;
  const oldAtEnd = base.total !== null && last.baseEnd + post === base.total;
  const curTotal = model.totalLines;
  const newAtEnd = curTotal !== null && newStart + newLines.length - 1 === curTotal;
  const oldText = joinLines(oldLines, oldAtEnd ? base.endsWithNewline !== false : true);
  const newText = joinLines(newLines, newAtEnd ? model.endsWithNewline !== false : true);
  const patch = structuredPatch('a', 'b', oldText, newText, '', '', { context: CONTEXT });
  let out = '';
  for (const h of patch.hunks) {
    const os = h.oldLines === 0 ? h.oldStart - 1 + oldStart - 1 : h.oldStart + oldStart - 1;
    const ns = h.newLines === 0 ? h.newStart - 1 + newStart - 1 : h.newStart + newStart - 1;
    out += `@@ -${os}${h.oldLines === 1 ? '' : ',' + h.oldLines} +${ns}${h.newLines === 1 ? '' : ',' + h.newLines} @@\n`;
    out += h.lines.join('\n') + '\n';
  }
  return out;
}

function joinLines(lines: string[], finalNewline: boolean): string {
  if (lines.length === 0) return '';
  return lines.join('\n') + (finalNewline ? '\n' : '');
}
