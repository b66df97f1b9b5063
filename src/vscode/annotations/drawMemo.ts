// Pure (no 'vscode'): what the painter and the Problems mirror remember between draws, so a redraw
// whose input did not change creates no Range or Diagnostic again and sends the editor nothing.
// Inputs are compared by identity: the controller replaces a file's decoration list (a new
// analysis, an edit shifting it) instead of changing it, and levels are read once per draw.

/** A value computed from an object (a file's decoration list) and a key (the levels), kept while both stay the same. */
export class DerivedMemo<Source extends object, Value> {
  private readonly values = new WeakMap<Source, { key: string; value: Value }>();

  get(source: Source, key: string, compute: () => Value): Value {
    const hit = this.values.get(source);
    if (hit && hit.key === key) return hit.value;
    const value = compute();
    this.values.set(source, { key, value });
    return value;
  }
}

/**
 * What was last sent to each target (an editor and a decoration type; a file's Problems entries):
 * `changed` is true, and remembers `value`, only when it is not what that target already has.
 * Targets are held weakly: an editor VS Code closed (and makes anew when shown again) starts empty.
 */
export class LastSent<Target extends object, Value> {
  private readonly sent = new WeakMap<Target, Map<string, Value>>();

  changed(target: Target, slot: string, value: Value): boolean {
    let slots = this.sent.get(target);
    if (!slots) this.sent.set(target, (slots = new Map()));
    if (slots.has(slot) && slots.get(slot) === value) return false;
    slots.set(slot, value);
    return true;
  }

  /** Forgets what `target` has (after clearing it some other way). */
  forget(target: Target): void {
    this.sent.delete(target);
  }
}
