// The one URI scheme of ChainLens's read-only documents (docs/ARCHITECTURE.md, "Documents"):
//   chainlens:/version/<run>/step-<k>/<version>/<repo path>[ (<title>)]   a file's version (base,
//       gold, recorded, submitted, working) at step k; the optional title suffix lets tabs side
//       by side tell themselves apart ("parse.py (gold)", "parse.py (step 2)")
//   chainlens:/patch/<run>/step-<k>/<gold|yours>.diff                    a step's gold patch, or its own
//   chainlens:/trajectory/<panel>/<path>                                 a text the trajectory viewer computed
// This module is the codec, and the only place that knows the layout. No 'vscode' here: unit-tested.
import { VERSION_KINDS, type VersionKind } from '../../app/fileVersions/fileVersion';

export const CHAINLENS_SCHEME = 'chainlens';

export type PatchSide = 'gold' | 'yours';

export type DocumentRef =
  | {
      readonly kind: 'version';
      readonly runId: string;
      readonly step: number;
      readonly version: VersionKind;
      readonly path: string;
      /** Suffix the tab title with the version's name. */
      readonly titled?: boolean;
    }
  | { readonly kind: 'patch'; readonly runId: string; readonly step: number; readonly side: PatchSide }
  | { readonly kind: 'trajectory'; readonly panel: string; readonly path: string };

export type DocumentKind = DocumentRef['kind'];

/** The title suffix of a version: its name, or "step k" for what the step submitted. */
export function versionTitle(version: VersionKind, step: number): string {
  return version === 'submitted' ? `step ${step}` : version;
}

const RUN = '([a-z0-9-]+)';
const VERSION = new RegExp(`^/version/${RUN}/step-(\\d+)/(${VERSION_KINDS.join('|')})/(.+)$`);
const PATCH = new RegExp(`^/patch/${RUN}/step-(\\d+)/(gold|yours)\\.diff$`);
const TRAJECTORY = /^\/trajectory\/([^/]+)\/(.+)$/;

/** The URI path of a document (the scheme is CHAINLENS_SCHEME). */
export function encodeDocumentPath(ref: DocumentRef): string {
  switch (ref.kind) {
    case 'version': {
      const title = ref.titled ? ` (${versionTitle(ref.version, ref.step)})` : '';
      return `/version/${ref.runId}/step-${ref.step}/${ref.version}/${ref.path}${title}`;
    }
    case 'patch':
      return `/patch/${ref.runId}/step-${ref.step}/${ref.side}.diff`;
    case 'trajectory':
      return `/trajectory/${ref.panel}/${ref.path.replace(/^\/+/, '')}`;
  }
}

/** The document a URI path names, or undefined when it is not one of ours. */
export function decodeDocumentPath(path: string): DocumentRef | undefined {
  let m = VERSION.exec(path);
  if (m) {
    const version = m[3] as VersionKind;
    const step = Number(m[2]);
    const suffix = ` (${versionTitle(version, step)})`;
    const titled = m[4].endsWith(suffix);
    const file = titled ? m[4].slice(0, -suffix.length) : m[4];
    return { kind: 'version', runId: m[1], step, version, path: file, ...(titled ? { titled } : {}) };
  }
  m = PATCH.exec(path);
  if (m) return { kind: 'patch', runId: m[1], step: Number(m[2]), side: m[3] as PatchSide };
  m = TRAJECTORY.exec(path);
  if (m) return { kind: 'trajectory', panel: m[1], path: m[2] };
  return undefined;
}
