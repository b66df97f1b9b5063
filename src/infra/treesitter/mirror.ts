import type { Tree, TreeCursor } from 'web-tree-sitter';
import type { SyntaxEdit, SyntaxNodeLike, SyntaxPoint, SyntaxTreeLike } from '../../core/analysis/syntax';
import { pointOf } from '../../core/analysis/edits';
import { cursorCallsFor, type CursorCalls } from './cursorCalls';

/**
 * A plain JavaScript copy of a tree-sitter tree, made lazily. Every property read on a
 * web-tree-sitter Node crosses into wasm and copies the node through a transfer buffer, so nodes
 * are copied with a cursor (a few wasm calls per node) and then read from JavaScript. A node's
 * children are copied when first asked for: symbol discovery only opens the nodes that can hold
 * definitions, and details only read the subtrees of the symbols they are asked about, so most of
 * a tree (expressions, leaves) is never copied. Positions are computed from indices when asked.
 */
class MirrorNode implements SyntaxNodeLike {
  /** Undefined until read from wasm; leaves share one empty list. */
  private kids: MirrorNode[] | undefined;
  private fields: (string | null)[] = NO_FIELDS;

  constructor(
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    /** Preorder index of the node in its tree (tree-sitter's descendant index). */
    readonly descendant: number,
    /** Descendant index just past this node's subtree: a leaf when it is `descendant + 1`. */
    public subtreeEnd: number,
    private readonly mirror: LazyMirror,
  ) {
    if (subtreeEnd === descendant + 1) this.kids = NO_CHILDREN;
  }

  get startPosition(): SyntaxPoint {
    return this.mirror.at(this.startIndex);
  }

  get endPosition(): SyntaxPoint {
    return this.mirror.at(this.endIndex);
  }

  get text(): string {
    return this.mirror.source.slice(this.startIndex, this.endIndex);
  }

  get loaded(): boolean {
    return this.kids !== undefined;
  }

  get children(): readonly MirrorNode[] {
    if (!this.kids) this.mirror.readChildren(this);
    return this.kids!;
  }

  /** While the subtree is being copied: one more child. */
  addChild(child: MirrorNode, field: string | null): void {
    if (!this.kids || this.kids === NO_CHILDREN) {
      this.kids = [child];
      this.fields = [field];
      return;
    }
    this.kids.push(child);
    this.fields.push(field);
  }

  setChildren(kids: MirrorNode[], fields: (string | null)[]): void {
    this.kids = kids;
    this.fields = fields;
  }

  /**
   * This node and what is copied below it, `delta` characters and `descendants` preorder positions
   * further, in `mirror`. Nodes not copied yet stay so (their descendant indices hold there too).
   */
  copyShifted(mirror: LazyMirror, delta: number, descendants: number): MirrorNode {
    const shift = (n: MirrorNode) =>
      new MirrorNode(
        n.type,
        n.isNamed,
        n.startIndex + delta,
        n.endIndex + delta,
        n.descendant + descendants,
        n.subtreeEnd + descendants,
        mirror,
      );
    const root = shift(this);
    // Iterative: expression trees can be deeper than the call stack.
    const work: [MirrorNode, MirrorNode][] = [[this, root]];
    while (work.length > 0) {
      const [from, to] = work.pop()!;
      if (!from.kids || from.kids === NO_CHILDREN) continue;
      const kids = from.kids.map(shift);
      to.setChildren(kids, from.fields);
      for (let i = 0; i < kids.length; i++) work.push([from.kids[i], kids[i]]);
    }
    return root;
  }

  get childCount(): number {
    return this.children.length;
  }

  child(index: number): MirrorNode | null {
    return this.children[index] ?? null;
  }

  childForFieldName(name: string): MirrorNode | null {
    const kids = this.children;
    const i = this.fields.indexOf(name);
    return i < 0 ? null : kids[i];
  }

  fieldNameForChild(index: number): string | null {
    if (!this.kids) this.mirror.readChildren(this);
    return this.fields[index] ?? null;
  }
}

export interface MirrorOptions {
  /** Record subtree ids, so that a parse of an edited version can reuse this tree's copies. */
  readonly index?: boolean;
  /** The tree this one was incrementally parsed from (copies of its unchanged subtrees are reused). */
  readonly reuse?: LazyMirror;
  /** How walks call the cursor (default: through TreeCursor's own methods). */
  readonly calls?: (tree: Tree, cursor: TreeCursor) => CursorCalls;
  /**
   * For a tree parsed incrementally from `reuse`: the edits that made its text from the base's,
   * and the spans (in this tree's text) where tree-sitter found the structure changed
   * (Tree.getChangedRanges). Lets a search for definitions look there alone (startsOf).
   */
  readonly edited?: { readonly edits: readonly SyntaxEdit[]; readonly changed: readonly IndexSpan[] };
}

/**
 * What one search of a span costs inside wasm (the call, and the walk down to the span), in nodes
 * a search of the whole tree walks in the same time: about 100 (6 µs against 0.085 µs a node,
 * measured on the analysis bench's files). A tree edited in more places than its nodes over this
 * is searched whole.
 */
const SPAN_SEARCH_COST_IN_NODES = 100;

/** Whether searching `spans` places of a tree of `nodes` nodes costs less than searching it whole. */
export const spanSearchPays = (spans: number, nodes: number) => spans * SPAN_SEARCH_COST_IN_NODES < nodes;

/** A span of string indices, end exclusive. */
export interface IndexSpan {
  readonly startIndex: number;
  readonly endIndex: number;
}

const PUBLIC_CALLS = cursorCallsFor(undefined);

/** Nodes shorter than this (identifiers, numbers) are read again rather than looked up for reuse. */
const REUSE_MIN_LENGTH = 16;

const NO_CHILDREN: MirrorNode[] = [];
const NO_FIELDS: (string | null)[] = [];

/**
 * wasm memory is not garbage collected: a tree its owner forgot to delete is freed once its
 * mirror is unreachable, so memory stays bounded all the same.
 */
const FORGOTTEN = new FinalizationRegistry<{ tree: Tree; cursor: TreeCursor }>(({ tree, cursor }) => {
  cursor.delete();
  tree.delete();
});

/** A wasm tree with its source, copied into MirrorNodes as they are asked for. */
export class LazyMirror implements SyntaxTreeLike {
  readonly rootNode: MirrorNode;
  private readonly starts: number[] = [0];
  private readonly types: readonly string[];
  private readonly fieldNames: readonly (string | null)[];
  private readonly named = new Map<number, boolean>();
  private cursor: TreeCursor | undefined;
  /** Subtree id → copied node, for the nodes read by readSubtree when `options.index` is set. */
  private readonly byId = new Map<number, MirrorNode>();
  private readonly startsMemo = new Map<ReadonlySet<string>, readonly number[] | undefined>();
  /** How many spans startsOf searched when it searched only where the tree changed (tests read it). */
  spansSearched: number | undefined;

  constructor(
    readonly tree: Tree,
    readonly source: string,
    private readonly options: MirrorOptions = {},
  ) {
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.starts.push(i + 1);
    this.types = tree.language.types;
    this.fieldNames = tree.language.fields;
    this.cursor = tree.walk();
    this.rootNode = this.make(PUBLIC_CALLS(tree, this.cursor), 0, tree.rootNode.descendantCount);
    FORGOTTEN.register(this, { tree, cursor: this.cursor }, this);
  }

  /** Row/column of a string index (binary search over the line starts). */
  at(index: number): SyntaxPoint {
    return pointOf(this.starts, index);
  }

  private live(): TreeCursor {
    if (!this.cursor) throw new Error('syntax tree used after delete()');
    return this.cursor;
  }

  /** Calls for one walk from the cursor's current node; `end()` them when it is over. */
  private walk(cursor: TreeCursor): CursorCalls {
    return (this.options.calls ?? PUBLIC_CALLS)(this.tree, cursor);
  }

  private isNamed(cursor: CursorCalls, typeId: number): boolean {
    let isNamed = this.named.get(typeId);
    if (isNamed === undefined) {
      isNamed = cursor.nodeIsNamed();
      this.named.set(typeId, isNamed);
    }
    return isNamed;
  }

  /** The node under the cursor. */
  private make(cursor: CursorCalls, descendant: number, subtreeEnd: number): MirrorNode {
    const typeId = cursor.nodeTypeId();
    return new MirrorNode(
      this.types[typeId] ?? 'ERROR',
      this.isNamed(cursor, typeId),
      cursor.startIndex(),
      cursor.endIndex(),
      descendant,
      subtreeEnd,
      this,
    );
  }

  /** One level: the children of `node`, each with the bounds of its subtree. */
  readChildren(node: MirrorNode): void {
    const live = this.live();
    live.gotoDescendant(node.descendant);
    const cursor = this.walk(live);
    try {
      this.readLevel(node, cursor);
    } finally {
      cursor.end();
    }
  }

  private readLevel(node: MirrorNode, cursor: CursorCalls): void {
    if (!cursor.gotoFirstChild()) {
      node.setChildren(NO_CHILDREN, NO_FIELDS);
      return;
    }
    const kids: MirrorNode[] = [];
    const fields: (string | null)[] = [];
    // A child's subtree ends where its next sibling's starts; the last one's where its parent's does.
    let at = node.descendant + 1;
    for (;;) {
      const typeId = cursor.nodeTypeId();
      const type = this.types[typeId] ?? 'ERROR';
      const isNamed = this.isNamed(cursor, typeId);
      const start = cursor.startIndex();
      const end = cursor.endIndex();
      fields.push(this.fieldNames[cursor.currentFieldId()] ?? null);
      const more = cursor.gotoNextSibling();
      const next = more ? cursor.descendantIndex() : node.subtreeEnd;
      kids.push(new MirrorNode(type, isNamed, start, end, at, next, this));
      if (!more) break;
      at = next;
    }
    node.setChildren(kids, fields);
  }

  /**
   * The whole subtree of `top` in one depth-first pass: descendant indices are preorder numbers,
   * so they are counted rather than asked for. Nodes copied earlier are kept (callers hold them).
   */
  readSubtree(node: SyntaxNodeLike): void {
    if (!(node instanceof MirrorNode)) throw new Error('readSubtree: not a node of this tree');
    const live = this.live();
    live.gotoDescendant(node.descendant);
    const cursor = this.walk(live);
    try {
      this.copySubtree(node, cursor);
    } finally {
      cursor.end();
    }
  }

  private copySubtree(node: MirrorNode, cursor: CursorCalls): void {
    /** Descendant index of the next node in preorder. */
    let next = node.descendant + 1;
    // The cursor's ancestors down to it: the node, whether its children are being copied now
    // (false: copied before), how many of them the cursor moved to. Parallel arrays, no frames.
    const nodes: MirrorNode[] = [node];
    const fresh: boolean[] = [!node.loaded];
    const moves: number[] = [0];
    while (nodes.length > 0) {
      const top = nodes.length - 1;
      const parent = nodes[top];
      const moved = moves[top] === 0 ? cursor.gotoFirstChild() : cursor.gotoNextSibling();
      if (!moved) {
        if (fresh[top]) {
          parent.subtreeEnd = next;
          if (!parent.loaded) parent.setChildren(NO_CHILDREN, NO_FIELDS);
        }
        if (moves[top] > 0) cursor.gotoParent();
        nodes.pop();
        fresh.pop();
        moves.pop();
        continue;
      }
      moves[top]++;
      let child: MirrorNode;
      if (fresh[top]) {
        child = this.make(cursor, next, -1);
        const field = this.fieldNames[cursor.currentFieldId()] ?? null;
        const copy = this.reusable(cursor, child);
        if (copy) {
          // The cursor stays on the copied node: its subtree is not walked.
          parent.addChild(copy, field);
          next = copy.subtreeEnd;
          continue;
        }
        parent.addChild(child, field);
      } else {
        child = parent.children[moves[top] - 1];
      }
      next++;
      nodes.push(child);
      fresh.push(!child.loaded);
      moves.push(0);
    }
  }

  /**
   * A copy of a subtree read before in the tree this one was incrementally parsed from, when
   * tree-sitter reused it (same subtree id while both trees are alive; type and text are checked
   * all the same). Records the ids of the nodes it reads when this tree can be such a base.
   * Anonymous and short nodes are not looked up: reading them costs about what the lookup does.
   */
  private reusable(cursor: CursorCalls, node: MirrorNode): MirrorNode | undefined {
    if (!node.isNamed || node.endIndex - node.startIndex < REUSE_MIN_LENGTH) return undefined;
    const base = this.options.reuse;
    const byId = this.options.index ? this.byId : undefined;
    if (!byId && !base?.cursor) return undefined;
    const id = cursor.nodeId();
    byId?.set(id, node);
    const old = base?.cursor ? base.byId.get(id) : undefined;
    if (
      !old ||
      old.type !== node.type ||
      old.isNamed !== node.isNamed ||
      old.endIndex - old.startIndex !== node.endIndex - node.startIndex
    )
      return undefined;
    if (base!.source.slice(old.startIndex, old.endIndex) !== this.source.slice(node.startIndex, node.endIndex))
      return undefined;
    return old.copyShifted(this, node.startIndex - old.startIndex, node.descendant - old.descendant);
  }

  /**
   * The search runs inside wasm: only the nodes it finds cross into JavaScript. A tree parsed
   * incrementally is searched only where it differs from its base (what an edit touched, or
   * tree-sitter says changed): elsewhere every character has the same ancestors in both trees, so
   * a node of one of `types` starts there exactly when the base has one at the same text, moved by
   * the edits before it. Memoized per `types` (the profiles pass the same set each time).
   */
  startsOf(types: ReadonlySet<string>): readonly number[] | undefined {
    this.live();
    if (this.startsMemo.has(types)) return this.startsMemo.get(types);
    const names = [...types];
    const starts = this.startsFromBase(types, names) ?? this.search(names);
    this.startsMemo.set(types, starts);
    return starts;
  }

  /**
   * Starts of the nodes of `types` that intersect `from..to` (the whole tree without bounds),
   * ascending; undefined when a node cannot be had.
   */
  private search(types: string[], from?: number, to?: number): number[] | undefined {
    // Matches every symbol named so (aliases, and anonymous tokens too: a superset is safe).
    // An end point of (0, 0) means "to the end" to web-tree-sitter, as does no end.
    const found =
      from === undefined
        ? this.tree.rootNode.descendantsOfType(types)
        : this.tree.rootNode.descendantsOfType(
            types,
            this.at(from),
            to! >= this.source.length ? undefined : this.at(to!),
          );
    const starts: number[] = [];
    for (const n of found) {
      if (!n) return undefined;
      starts.push(n.startIndex);
    }
    return starts.sort((a, b) => a - b);
  }

  private startsFromBase(types: ReadonlySet<string>, names: string[]): number[] | undefined {
    const base = this.options.reuse;
    const edited = this.options.edited;
    if (!edited || !base?.alive) return undefined;
    const before = base.startsOf(types);
    if (!before) return undefined;
    const dirty = dirtySpans(edited.edits, edited.changed);
    if (!spanSearchPays(dirty.length, this.rootNode.subtreeEnd)) return undefined;
    const starts: number[] = [];
    for (const start of before) {
      const moved = throughEdits(start, edited.edits);
      if (moved !== undefined && !within(dirty, moved)) starts.push(moved);
    }
    for (const d of dirty) {
      // One past the span's end: a node starting on its last index is found too.
      const found = this.search(names, d.startIndex, d.endIndex + 1);
      if (!found) return undefined;
      for (const start of found) if (start >= d.startIndex && start <= d.endIndex) starts.push(start);
    }
    this.spansSearched = dirty.length;
    // Kept starts lie outside every span and found ones inside: no index comes twice.
    return starts.sort((a, b) => a - b);
  }

  /** Descends along `hasError` to the first ERROR or MISSING node (tree-sitter marks the path to it). */
  firstSyntaxError(): SyntaxPoint | null {
    this.live();
    let node = this.tree.rootNode;
    if (!node.hasError) return null;
    for (;;) {
      if (node.isError || node.isMissing) return this.at(node.startIndex);
      const next = node.children.find((c) => c !== null && c.hasError);
      if (!next) return this.at(node.startIndex);
      node = next;
    }
  }

  /** Whether the wasm tree is still there (not deleted). */
  get alive(): boolean {
    return this.cursor !== undefined;
  }

  delete(): void {
    if (!this.cursor) return;
    FORGOTTEN.unregister(this);
    this.cursor.delete();
    this.cursor = undefined;
    this.tree.delete();
  }
}

/**
 * Where an index of the base text is after `edits` (each on the text the ones before it made);
 * undefined when an edit replaced the character there.
 */
function throughEdits(index: number, edits: readonly SyntaxEdit[]): number | undefined {
  let at = index;
  for (const e of edits) {
    if (at < e.startIndex) continue;
    if (at >= e.oldEndIndex) at += e.newEndIndex - e.oldEndIndex;
    else return undefined;
  }
  return at;
}

/**
 * The spans of the edited text, both ends included, that the edits wrote or tree-sitter found
 * changed: each edit's new text, moved by the edits after it (a later edit inside or across it
 * widens it), and the changed ranges, which are in the final text already.
 */
function dirtySpans(edits: readonly SyntaxEdit[], changed: readonly IndexSpan[]): IndexSpan[] {
  const spans: { startIndex: number; endIndex: number }[] = [];
  for (const e of edits) {
    const delta = e.newEndIndex - e.oldEndIndex;
    // A patch's edits come in order, so usually no span reaches this edit and nothing moves.
    for (const d of spans) {
      if (d.endIndex < e.startIndex) continue;
      if (d.startIndex >= e.oldEndIndex) d.startIndex += delta;
      else if (d.startIndex > e.startIndex) d.startIndex = e.startIndex;
      d.endIndex = d.endIndex >= e.oldEndIndex ? d.endIndex + delta : e.newEndIndex;
    }
    spans.push({ startIndex: e.startIndex, endIndex: e.newEndIndex });
  }
  for (const c of changed) spans.push({ startIndex: c.startIndex, endIndex: c.endIndex });
  // Merged and in order: one search per run of overlapping spans, and a binary search to test an index.
  spans.sort((a, b) => a.startIndex - b.startIndex);
  const merged: IndexSpan[] = [];
  for (const d of spans) {
    const last = merged[merged.length - 1];
    if (last && d.startIndex <= last.endIndex + 1)
      merged[merged.length - 1] = { startIndex: last.startIndex, endIndex: Math.max(last.endIndex, d.endIndex) };
    else merged.push(d);
  }
  return merged;
}

/** Whether `index` is inside one of `spans` (ascending, disjoint, ends included). */
function within(spans: readonly IndexSpan[], index: number): boolean {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].endIndex < index) lo = mid + 1;
    else hi = mid;
  }
  return lo < spans.length && spans[lo].startIndex <= index;
}
