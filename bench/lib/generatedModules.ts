// The generated Python modules of the analysis bench, also held to recorded digests by
// test/unit/analysis/pinnedOutput.test.ts: one function per call, in a base, a step and a gold
// variant, where the step and gold edit it differently (a fallback against a raised error).
export type Variant = 'base' | 'step' | 'gold';

export function generatedFunction(i: number, variant: Variant, edited: boolean): string {
  const check =
    !edited || variant === 'base'
      ? ''
      : variant === 'gold'
        ? `    if value is None:\n        raise ValueError("value ${i}")\n`
        : `    value = value or 0\n`;
  const effect = edited && variant === 'step' && i % 5 === 0 ? `    print("f${i}", value)\n` : '';
  return (
    `def func_${i}(value, options=None):\n` +
    `    """Compute item ${i}."""\n` +
    check +
    `    total = 0\n` +
    `    for k in range(${(i % 7) + 2}):\n` +
    `        if k % 2 and options:\n` +
    `            total += options.get(k, k)\n` +
    `        else:\n` +
    `            total -= k\n` +
    effect +
    `    return total + ${edited && variant !== 'base' ? (variant === 'gold' ? 'value' : 'int(value)') : '1'}\n\n\n`
  );
}
