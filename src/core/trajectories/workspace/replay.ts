import type { FileSnapshot, PatchSoFar } from '../../../protocol/trajectory';
import type { WorkspaceOp } from '../interpret/stepEffects';
import { diffFile, type FileDiff } from './filePatch';
import { baseFromText, copyBase, FileModel, type BaseKnowledge } from './fileModel';

export interface ReplayOptions {
  /** Original content of a file: text, null = did not exist at base, undefined = unknown. */
  readBaseFile?: (path: string) => string | null | undefined;
  /** The run's final patch, used only to learn which files existed before (new file vs edit). */
  submission?: string | null;
}

/** The workspace while replaying: one FileModel per file the steps touched. */
class Workspace {
  readonly models = new Map<string, FileModel>();
  readonly globalGaps: string[] = [];

  constructor(
    private readonly seeds: Map<string, BaseKnowledge>,
    private readonly readBaseFile?: (path: string) => string | null | undefined,
  ) {}

  model(path: string): FileModel {
    let m = this.models.get(path);
    if (!m) {
      const seed = this.seeds.get(path);
      let base = seed ? copyBase(seed) : undefined;
      if (!base && this.readBaseFile) {
        const text = this.readBaseFile(path);
        if (text !== undefined) base = baseFromText(text);
      }
      m = new FileModel(path, base);
      this.models.set(path, m);
    }
    return m;
  }

  /** Applies one op; returns whether the patch may have changed. */
  apply(op: WorkspaceOp, step: number): boolean {
    const at = (reason: string) => `step ${step}: ${reason}`;
    switch (op.type) {
      case 'recordedPatch':
        return false;
      case 'untracked':
        if (op.path === '*') {
          this.globalGaps.push(at(op.reason));
          for (const m of this.models.values()) m.detach(at(op.reason));
        } else this.model(op.path).detach(at(op.reason));
        return true;
    }
    const m = this.model(op.path);
    let failure: string | null = null;
    switch (op.type) {
      case 'view': {
        const conflict = m.observe(op.startLine, op.lines, {
          totalLines: op.totalLines,
          wholeFile: op.wholeFile,
          endsWithNewline: op.endsWithNewline,
        });
        if (conflict) m.detached = at(conflict);
        return conflict !== null;
      }
      case 'contentBefore': {
        const { lines, endsWithNewline } = splitContent(op.content);
        const conflict = m.observe(1, lines, { wholeFile: true, endsWithNewline });
        if (conflict) m.detached = at(conflict);
        return conflict !== null;
      }
      case 'replaceLines':
        failure = m.replaceLines(op.start, op.end, op.lines);
        break;
      case 'strReplace':
        failure = m.strReplace(op.oldStr, op.newStr, op.snippet);
        if (!failure && op.snippet) m.observe(op.snippet.startLine, op.snippet.lines);
        break;
      case 'insert':
        failure = m.insert(op.afterLine, op.text);
        break;
      case 'write':
        m.write(op.content, op.created);
        return true;
      case 'substitute':
        failure = m.substitute(op.range, op.apply);
        break;
      case 'delete':
        m.delete();
        return true;
      case 'undo':
        failure = m.undo();
        break;
    }
    if (failure) m.detach(at(failure));
    return true;
  }

  private readonly diffs = new Map<string, { version: number; diff: FileDiff }>();

  patch(): PatchSoFar {
    const parts: string[] = [];
    const gaps = [...this.globalGaps];
    for (const path of [...this.models.keys()].sort()) {
      if (!isRepoPath(path)) continue;
      const m = this.models.get(path)!;
      // only files that changed since the last patch are diffed again
      let cached = this.diffs.get(path);
      if (!cached || cached.version !== m.version)
        this.diffs.set(path, (cached = { version: m.version, diff: diffFile(m) }));
      const d = cached.diff;
      if (d.text) parts.push(d.text);
      if (d.gap) gaps.push(d.gap);
    }
    return { text: parts.join(''), origin: 'reconstructed', complete: gaps.length === 0, gaps };
  }
}

/** Files outside the repository (/tmp/x.py) are not part of its patch. */
function isRepoPath(path: string): boolean {
  return !path.startsWith('/') && !path.startsWith('../') && path !== '.';
}

function splitContent(content: string): { lines: string[]; endsWithNewline: boolean } {
  const endsWithNewline = content === '' || content.endsWith('\n');
  return {
    lines: content === '' ? [] : (endsWithNewline ? content.slice(0, -1) : content).split('\n'),
    endsWithNewline,
  };
}

/**
 * Base knowledge learnt from the whole run: a view at step 9 tells what base lines 237-286 held
 * even for step 2. The final patch, when there is one, says which files are new.
 */
function learnBases(opsPerStep: readonly WorkspaceOp[][], options: ReplayOptions): Map<string, BaseKnowledge> {
  const ws = new Workspace(new Map(), options.readBaseFile);
  opsPerStep.forEach((ops, k) => ops.forEach((op) => ws.apply(op, k)));
  const bases = new Map<string, BaseKnowledge>();
  for (const [path, m] of ws.models) bases.set(path, copyBase(m.base));
  if (options.submission) {
    const inPatch = filesInPatch(options.submission);
    for (const [path, base] of bases) {
      const status = inPatch.get(path);
      if (base.exists !== null) continue;
      if (status === 'new') {
        base.exists = false;
        base.total = 0;
      } else if (status === 'modified' || status === 'deleted') base.exists = true;
      else if (status === undefined && ws.models.get(path)?.exists === false) {
        // removed by the end yet absent from the final diff: it cannot have existed before
        base.exists = false;
        base.total = 0;
      }
    }
  }
  return bases;
}

export function filesInPatch(patch: string): Map<string, 'new' | 'deleted' | 'modified'> {
  const out = new Map<string, 'new' | 'deleted' | 'modified'>();
  const re = /^diff --git a\/(.+?) b\/(.+?)\r?$/gm;
  const headers = [...patch.matchAll(re)];
  headers.forEach((m, k) => {
    const end = k + 1 < headers.length ? headers[k + 1].index : patch.length;
    const block = patch.slice(m.index, end);
    out.set(m[2], /^new file mode/m.test(block) ? 'new' : /^deleted file mode/m.test(block) ? 'deleted' : 'modified');
  });
  return out;
}

/**
 * The patch after every step: recorded where the step recorded one, otherwise reconstructed from
 * the edits so far. Consecutive steps that change nothing share one object.
 */
export function patchesSoFar(opsPerStep: readonly WorkspaceOp[][], options: ReplayOptions = {}): PatchSoFar[] {
  const ws = new Workspace(learnBases(opsPerStep, options), options.readBaseFile);
  const out: PatchSoFar[] = [];
  let last: PatchSoFar = { text: '', origin: 'reconstructed', complete: true, gaps: [] };
  opsPerStep.forEach((ops, k) => {
    const recorded = ops.find((o) => o.type === 'recordedPatch');
    let changed = false;
    for (const op of ops) changed = ws.apply(op, k) || changed;
    if (changed) last = ws.patch();
    out.push(
      recorded && recorded.type === 'recordedPatch'
        ? { text: recorded.text, origin: 'recorded', complete: true, gaps: [] }
        : last,
    );
  });
  return out;
}

export interface WorkspaceTimeline {
  /** Files the steps read or wrote, repository-relative where possible. */
  readonly files: string[];
  /** The file as of the end of step `stepIndex`. */
  fileAt(path: string, stepIndex: number): FileSnapshot;
  /** The reconstructed patch after step `stepIndex` (base files considered). */
  patchAt(stepIndex: number): PatchSoFar;
}

/** Replays on demand: each question replays the steps up to the one asked about. */
export function workspaceTimeline(
  opsPerStep: readonly WorkspaceOp[][],
  options: ReplayOptions = {},
): WorkspaceTimeline {
  const bases = learnBases(opsPerStep, options);
  const files = [
    ...new Set(opsPerStep.flatMap((ops) => ops.flatMap((o) => ('path' in o && o.path !== '*' ? [o.path] : [])))),
  ].sort();
  const replay = (upTo: number, onlyPath?: string): Workspace => {
    const ws = new Workspace(bases, options.readBaseFile);
    for (let k = 0; k <= upTo && k < opsPerStep.length; k++) {
      for (const op of opsPerStep[k]) {
        if (onlyPath && 'path' in op && op.path !== onlyPath && op.path !== '*') continue;
        ws.apply(op, k);
      }
    }
    return ws;
  };
  return {
    files,
    fileAt(path, stepIndex) {
      const m = replay(stepIndex, path).model(path);
      const runs = m.knownRuns();
      const text = m.fullText();
      const unseen =
        m.detached ??
        (text === null && m.exists !== false ? 'parts of the file were never shown in the trajectory' : null);
      return { path, stepIndex, exists: m.exists, totalLines: m.totalLines, runs, text, unknownBecause: unseen };
    },
    patchAt(stepIndex) {
      return replay(stepIndex).patch();
    },
  };
}
