/** Halstead's counts (Halstead 1977): distinct and total operators (η1, N1) and operands (η2, N2). */
export interface HalsteadCounts {
  readonly distinctOperators: number;
  readonly distinctOperands: number;
  readonly operators: number;
  readonly operands: number;
}

/** Volume V = N · log2(η), N = N1 + N2, η = η1 + η2; 0 for an empty vocabulary (radon's guard). */
export function halsteadVolume(c: HalsteadCounts): number {
  const vocabulary = c.distinctOperators + c.distinctOperands;
  const length = c.operators + c.operands;
  return vocabulary === 0 ? 0 : length * Math.log2(vocabulary);
}

/** Counts into which operators and operands are added one occurrence at a time. */
export class HalsteadTally {
  private readonly operatorSet = new Set<string>();
  private readonly operandSet = new Set<string>();
  private operatorCount = 0;
  private operandCount = 0;

  operator(key: string): void {
    this.operatorSet.add(key);
    this.operatorCount++;
  }

  operand(key: string): void {
    this.operandSet.add(key);
    this.operandCount++;
  }

  counts(): HalsteadCounts {
    return {
      distinctOperators: this.operatorSet.size,
      distinctOperands: this.operandSet.size,
      operators: this.operatorCount,
      operands: this.operandCount,
    };
  }
}
