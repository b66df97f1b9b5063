import type { Tree, TreeCursor } from 'web-tree-sitter';

/**
 * The cursor moves and reads a tree copy makes for each node. Through web-tree-sitter's
 * TreeCursor, every call first writes the cursor's four words into the runtime's transfer buffer
 * and every move reads them back: a third of the time of copying a subtree. `wasmCursorCalls`
 * keeps the cursor in the transfer buffer for a whole walk instead, calling the runtime's exports
 * directly (the same functions TreeCursor calls, in the same order).
 */
export interface CursorCalls {
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  nodeTypeId(): number;
  nodeIsNamed(): boolean;
  startIndex(): number;
  endIndex(): number;
  currentFieldId(): number;
  nodeId(): number;
  descendantIndex(): number;
  /** The walk is over: the cursor object holds where it ended. */
  end(): void;
}

/** What web-tree-sitter's emscripten module holds after `Parser.init(module)` (0.25.x). */
export interface TreeSitterModule {
  readonly HEAP32?: Int32Array;
  readonly _ts_init?: () => number;
  readonly _ts_tree_cursor_goto_first_child_wasm?: (tree: number) => number;
  readonly _ts_tree_cursor_goto_next_sibling_wasm?: (tree: number) => number;
  readonly _ts_tree_cursor_goto_parent_wasm?: (tree: number) => number;
  readonly _ts_tree_cursor_current_node_type_id_wasm?: (tree: number) => number;
  readonly _ts_tree_cursor_current_node_is_named_wasm?: (tree: number) => number;
  readonly _ts_tree_cursor_start_index_wasm?: (tree: number) => number;
  readonly _ts_tree_cursor_end_index_wasm?: (tree: number) => number;
  readonly _ts_tree_cursor_current_field_id_wasm?: (tree: number) => number;
  readonly _ts_tree_cursor_current_node_id_wasm?: (tree: number) => number;
  readonly _ts_tree_cursor_current_descendant_index_wasm?: (tree: number) => number;
}

/** TreeCursor and Tree keep their wasm words at indices 0..3 (and 0): web-tree-sitter 0.25.x. */
type Words = { [i: number]: number };

class PublicCursorCalls implements CursorCalls {
  constructor(private readonly c: TreeCursor) {}
  gotoFirstChild() {
    return this.c.gotoFirstChild();
  }
  gotoNextSibling() {
    return this.c.gotoNextSibling();
  }
  gotoParent() {
    return this.c.gotoParent();
  }
  nodeTypeId() {
    return this.c.nodeTypeId;
  }
  nodeIsNamed() {
    return this.c.nodeIsNamed;
  }
  startIndex() {
    return this.c.startIndex;
  }
  endIndex() {
    return this.c.endIndex;
  }
  currentFieldId() {
    return this.c.currentFieldId;
  }
  nodeId() {
    return this.c.nodeId;
  }
  descendantIndex() {
    return this.c.currentDescendantIndex;
  }
  end(): void {}
}

type Required<T> = { [K in keyof T]-?: NonNullable<T[K]> };

class WasmCursorCalls implements CursorCalls {
  private readonly at: number;

  constructor(
    private readonly m: Required<TreeSitterModule>,
    transferBuffer: number,
    private readonly tree: number,
    private readonly cursor: Words,
  ) {
    this.at = transferBuffer >> 2;
    // The heap view is read at each use: wasm memory can grow (and get a new view) during a walk.
    const heap = m.HEAP32;
    for (let i = 0; i < 4; i++) heap[this.at + i] = cursor[i];
  }

  gotoFirstChild() {
    return this.m._ts_tree_cursor_goto_first_child_wasm(this.tree) === 1;
  }
  gotoNextSibling() {
    return this.m._ts_tree_cursor_goto_next_sibling_wasm(this.tree) === 1;
  }
  gotoParent() {
    return this.m._ts_tree_cursor_goto_parent_wasm(this.tree) === 1;
  }
  nodeTypeId() {
    return this.m._ts_tree_cursor_current_node_type_id_wasm(this.tree);
  }
  nodeIsNamed() {
    return this.m._ts_tree_cursor_current_node_is_named_wasm(this.tree) === 1;
  }
  startIndex() {
    return this.m._ts_tree_cursor_start_index_wasm(this.tree);
  }
  endIndex() {
    return this.m._ts_tree_cursor_end_index_wasm(this.tree);
  }
  currentFieldId() {
    return this.m._ts_tree_cursor_current_field_id_wasm(this.tree);
  }
  nodeId() {
    return this.m._ts_tree_cursor_current_node_id_wasm(this.tree);
  }
  descendantIndex() {
    return this.m._ts_tree_cursor_current_descendant_index_wasm(this.tree);
  }

  end(): void {
    const heap = this.m.HEAP32;
    for (let i = 0; i < 4; i++) this.cursor[i] = heap[this.at + i];
  }
}

const NEEDED = [
  'HEAP32',
  '_ts_init',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_current_node_is_named_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
  '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_current_node_id_wasm',
  '_ts_tree_cursor_current_descendant_index_wasm',
] as const;

/**
 * A factory of cursor calls for walks over `tree` with `cursor`: direct ones when the module has
 * every export they need and the cursor its four words, else TreeCursor's own.
 */
export function cursorCallsFor(module: TreeSitterModule | undefined): (tree: Tree, cursor: TreeCursor) => CursorCalls {
  const usable = module && NEEDED.every((k) => module[k] !== undefined);
  // ts_init only returns the address of the runtime's static transfer buffer (and sets its allocator again).
  const buffer = usable ? module._ts_init!() : 0;
  return (tree, cursor) => {
    const t = (tree as unknown as Words)[0];
    const c = cursor as unknown as Words;
    if (!usable || typeof t !== 'number' || [0, 1, 2, 3].some((i) => typeof c[i] !== 'number'))
      return new PublicCursorCalls(cursor);
    return new WasmCursorCalls(module as Required<TreeSitterModule>, buffer, t, c);
  };
}
