import type { Tree } from 'web-tree-sitter';
import type { SyntaxNodeLike, SyntaxPoint } from '../../core/analysis/syntax';

/**
 * A plain JavaScript copy of a tree-sitter tree. Every property read on a web-tree-sitter Node
 * crosses into wasm and copies the node through a transfer buffer; analysis reads each node
 * many times (type, fields, children), so copying the tree once with a cursor (five wasm calls
 * per node) and freeing the wasm tree right away is several times faster and bounds wasm memory
 * to one tree at a time.
 */
class MirrorNode implements SyntaxNodeLike {
  readonly children: MirrorNode[] = [];
  readonly fields: (string | null)[] = [];

  constructor(
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly startPosition: SyntaxPoint,
    readonly endPosition: SyntaxPoint,
    private readonly source: string,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
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

/** Row/column of a string index, from a table of line starts (binary search). */
function pointer(source: string): (index: number) => SyntaxPoint {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return (index) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: index - starts[lo] };
  };
}

export function mirrorTree(tree: Tree, source: string): SyntaxNodeLike {
  const { types, fields } = tree.language;
  const named = new Map<number, boolean>();
  const at = pointer(source);
  const cursor = tree.walk();
  try {
    const make = (): MirrorNode => {
      const typeId = cursor.nodeTypeId;
      let isNamed = named.get(typeId);
      if (isNamed === undefined) {
        isNamed = cursor.nodeIsNamed;
        named.set(typeId, isNamed);
      }
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      return new MirrorNode(types[typeId] ?? 'ERROR', isNamed, start, end, at(start), at(end), source);
    };
    const root = make();
    const stack: MirrorNode[] = [root];
    // Depth-first with the cursor; the stack mirrors the cursor's ancestors.
    let descend = true;
    for (;;) {
      if (descend && cursor.gotoFirstChild()) {
        const node = make();
        const parent = stack[stack.length - 1];
        parent.children.push(node);
        parent.fields.push(fields[cursor.currentFieldId] ?? null);
        stack.push(node);
        descend = true;
        continue;
      }
      if (stack.length === 1) break;
      if (cursor.gotoNextSibling()) {
        stack.pop();
        const node = make();
        const parent = stack[stack.length - 1];
        parent.children.push(node);
        parent.fields.push(fields[cursor.currentFieldId] ?? null);
        stack.push(node);
        descend = true;
        continue;
      }
      cursor.gotoParent();
      stack.pop();
      descend = false;
    }
    return root;
  } finally {
    cursor.delete();
  }
}
