/**
 * A unified diff cut into hunks and put back together from any subset of them: the units the
 * culprit search of a chain error removes from a step's patch, or adds from its gold patch
 * (docs/reference/metrics.md, "Chain-error evidence"). Text-level on purpose: each hunk keeps its
 * file header byte for byte, so a subset is a patch `git apply` reads (it finds hunks whose line
 * numbers moved). A file section without hunks (a rename, a mode change, a binary file) is one unit.
 */
export interface PatchHunk {
  /** `path#n`, n counting the file's hunks from 1. */
  readonly id: string;
  readonly file: string;
  /** The file's header lines (`diff --git` … `+++`), shared by its hunks. */
  readonly header: string;
  /** The hunk (`@@` line and body), '' for a section without hunks. */
  readonly body: string;
}

export function splitHunks(patch: string): PatchHunk[] {
  const out: PatchHunk[] = [];
  const sections = patch.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
  for (const section of sections) {
    const lines = section.split(/(?<=\n)/);
    const first = lines.findIndex((l) => l.startsWith('@@'));
    const header = (first < 0 ? lines : lines.slice(0, first)).join('');
    const names = /^diff --git a\/(.*) b\/(.*)$/m.exec(header);
    const file = names ? names[2] : header.split('\n')[0];
    if (first < 0) {
      out.push({ id: `${file}#1`, file, header, body: '' });
      continue;
    }
    let body: string[] = [];
    let n = 0;
    const flush = () => {
      if (body.length) out.push({ id: `${file}#${++n}`, file, header, body: body.join('') });
      body = [];
    };
    for (const line of lines.slice(first)) {
      if (line.startsWith('@@')) flush();
      body.push(line);
    }
    flush();
  }
  return out;
}

/** The patch made of `hunks`, in their order, one header per file. */
export function joinHunks(hunks: readonly PatchHunk[]): string {
  let out = '';
  let lastHeader: string | null = null;
  for (const h of hunks) {
    if (h.header !== lastHeader) out += h.header;
    lastHeader = h.header;
    out += h.body;
  }
  return out;
}
