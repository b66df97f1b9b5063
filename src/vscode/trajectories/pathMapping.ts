// Where a file an agent touched lives in this workspace. Agents run in containers with the
// repository at /testbed, /<owner>__<repo>, /workspace/<repo>, …; the trajectory's own
// workspaceRoot says which when the adapter knew it. Pure (no vscode, no fs): the caller says
// which workspace-relative paths exist.

/** Roots SWE-bench style harnesses put the repository at, when the trajectory does not say. */
const KNOWN_ROOTS = ['/testbed', '/workspace', '/repo', '/app', '/code'];

/**
 * The workspace-relative path of `agentPath`, or null when it is outside the repository as far
 * as can be told. `exists` (optional) lets a path under an unknown root be found by dropping
 * leading folders until what is left exists in the workspace (`/tmp/x/pkg/a.py` → `pkg/a.py`).
 */
export function toWorkspacePath(
  agentPath: string,
  workspaceRoot: string | null,
  exists?: (relative: string) => boolean,
): string | null {
  const path = agentPath.replace(/\\/g, '/').trim();
  if (!path) return null;
  if (!path.startsWith('/')) return normalise(path);
  for (const root of [workspaceRoot, ...KNOWN_ROOTS]) {
    const rel = root ? under(path, root) : null;
    if (rel) return rel;
  }
  if (!exists) return null;
  const parts = path.split('/').filter(Boolean);
  for (let k = 1; k < parts.length; k++) {
    const rel = parts.slice(k).join('/');
    if (exists(rel)) return rel;
  }
  return null;
}

function under(path: string, root: string): string | null {
  const r = root.replace(/\\/g, '/').replace(/\/+$/, '');
  if (!r || !path.startsWith(r + '/')) return null;
  return normalise(path.slice(r.length + 1));
}

/** `./a//b/../c.py` → `a/c.py`; null when it climbs out of the repository. */
function normalise(path: string): string | null {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') {
      if (!out.length) return null;
      out.pop();
    } else out.push(part);
  }
  return out.length ? out.join('/') : null;
}
