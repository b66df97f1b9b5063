import type { Tree } from 'web-tree-sitter';
import type { SyntaxNodeLike, SyntaxPoint } from '../../core/analysis/syntax';

/**
 * A plain JavaScript copy of a tree-sitter tree. Every property read on a web-tree-sitter Node
 * crosses into wasm and copies the node through a transfer buffer; analysis reads each node
 * many times (type, fields, children), so copying the tree once with a cursor (five wasm calls
 * per node) is several times faster. Positions are computed from indices when asked: most nodes
 * are never asked, and two point objects per node were a large share of garbage collection.
 */
class MirrorNode implements SyntaxNodeLike {
  /** Leaves (most nodes) share one empty list instead of allocating two each. */
  children: readonly MirrorNode[] = NO_CHILDREN;
  fields: readonly (string | null)[] = NO_FIELDS;
  /** tree-sitter's id of the subtree (its address), when the mirror was indexed. */
  id: number | undefined;

  constructor(
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    private readonly doc: MirrorDoc,
  ) {}

  get startPosition(): SyntaxPoint {
    return this.doc.at(this.startIndex);
  }

  get endPosition(): SyntaxPoint {
    return this.doc.at(this.endIndex);
  }

  get text(): string {
    return this.doc.source.slice(this.startIndex, this.endIndex);
  }

  addChild(child: MirrorNode, field: string | null): void {
    if (this.children === NO_CHILDREN) {
      this.children = [child];
      this.fields = [field];
      return;
    }
    (this.children as MirrorNode[]).push(child);
    (this.fields as (string | null)[]).push(field);
  }

  get childCount(): number {
    return this.children.length;
  }

  child(index: number): MirrorNode | null {
    return this.children[index] ?? null;
  }

  childForFieldName(name: string): MirrorNode | null {
    const i = this.fields.indexOf(name);
    return i < 0 ? null : this.children[i];
  }

  fieldNameForChild(index: number): string | null {
    return this.fields[index] ?? null;
  }
}

const NO_CHILDREN: readonly MirrorNode[] = Object.freeze([]);
const NO_FIELDS: readonly (string | null)[] = Object.freeze([]);

/** The mirrored source text with a table of line starts. */
class MirrorDoc {
  private readonly starts: number[] = [0];

  constructor(readonly source: string) {
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** Row/column of a string index (binary search over the line starts). */
  at(index: number): SyntaxPoint {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: index - starts[lo] };
  }
}

/**
 * What an incremental parse of an edited version can reuse: tree-sitter keeps the subtrees an
 * edit did not touch (same id while the old tree is alive), so their mirrors are copied, shifted,
 * instead of being read again through wasm.
 */
export interface MirrorIndex {
  readonly source: string;
  /** Subtree id → mirror, for named nodes with children spanning REUSE_MIN_LENGTH or more. */
  readonly byId: Map<number, MirrorNode>;
}

export interface MirrorOptions {
  /** Record subtree ids, so that a parse of an edited version can reuse this mirror. */
  readonly index?: boolean;
  /** The mirror of the tree this one was incrementally parsed from. */
  readonly reuse?: MirrorIndex;
}

/** Nodes shorter than this (identifiers, numbers) are read again rather than looked up for reuse. */
const REUSE_MIN_LENGTH = 16;

/** A childless copy of `n`, `delta` characters further into `doc`, indexed by id if it has children. */
function moved(n: MirrorNode, delta: number, doc: MirrorDoc, byId: Map<number, MirrorNode> | undefined): MirrorNode {
  const c = new MirrorNode(n.type, n.isNamed, n.startIndex + delta, n.endIndex + delta, doc);
  c.id = n.id;
  if (byId && c.id !== undefined && n.children.length > 0) byId.set(c.id, c);
  return c;
}

export function mirrorTree(tree: Tree, source: string, options: MirrorOptions = {}): { root: SyntaxNodeLike; index?: MirrorIndex } {
  const { types, fields } = tree.language;
  const named = new Map<number, boolean>();
  const doc = new MirrorDoc(source);
  const reuse = options.reuse;
  const byId = options.index ? new Map<number, MirrorNode>() : undefined;
  const wantId = byId !== undefined || reuse !== undefined;
  const cursor = tree.walk();

  /** A mirrored subtree moved by `delta` characters into the new source. */
  const shifted = (from: MirrorNode, delta: number): MirrorNode => {
    const root = moved(from, delta, doc, byId);
    // Iterative: expression trees can be deeper than the call stack.
    const work: [MirrorNode, MirrorNode][] = [[from, root]];
    while (work.length > 0) {
      const [src, dst] = work.pop()!;
      for (let i = 0; i < src.children.length; i++) {
        const child = src.children[i];
        const c = moved(child, delta, doc, byId);
        dst.addChild(c, src.fields[i]);
        if (child.children.length > 0) work.push([child, c]);
      }
    }
    return root;
  };

  try {
    /** The node under the cursor; `reused` when it was copied whole from the previous mirror. */
    let reused = false;
    const make = (): MirrorNode => {
      const typeId = cursor.nodeTypeId;
      let isNamed = named.get(typeId);
      if (isNamed === undefined) {
        isNamed = cursor.nodeIsNamed;
        named.set(typeId, isNamed);
      }
      const type = types[typeId] ?? 'ERROR';
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      // Anonymous nodes are tokens, and short nodes hold little: re-reading them costs about what
      // looking up their id does.
      const id = wantId && isNamed && end - start >= REUSE_MIN_LENGTH ? cursor.nodeId : undefined;
      const old = reuse && id !== undefined ? reuse.byId.get(id) : undefined;
      // The id says tree-sitter reused the subtree; type and text are checked all the same.
      if (old && old.type === type && old.endIndex - old.startIndex === end - start && reuse!.source.slice(old.startIndex, old.endIndex) === source.slice(start, end)) {
        reused = true;
        return shifted(old, start - old.startIndex);
      }
      reused = false;
      const node = new MirrorNode(type, isNamed, start, end, doc);
      node.id = id;
      return node;
    };
    const root = make();
    const stack: MirrorNode[] = [root];
    // Depth-first with the cursor; the stack mirrors the cursor's ancestors.
    let descend = !reused;
    for (;;) {
      if (descend && cursor.gotoFirstChild()) {
        const parent = stack[stack.length - 1];
        if (byId && parent.id !== undefined) byId.set(parent.id, parent);
        const node = make();
        parent.addChild(node, fields[cursor.currentFieldId] ?? null);
        stack.push(node);
        descend = !reused;
        continue;
      }
      if (stack.length === 1) break;
      if (cursor.gotoNextSibling()) {
        stack.pop();
        const node = make();
        stack[stack.length - 1].addChild(node, fields[cursor.currentFieldId] ?? null);
        stack.push(node);
        descend = !reused;
        continue;
      }
      cursor.gotoParent();
      stack.pop();
      descend = false;
    }
    return { root, index: byId ? { source, byId } : undefined };
  } finally {
    cursor.delete();
  }
}
