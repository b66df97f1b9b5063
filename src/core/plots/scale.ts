/** A linear map from a data domain onto a pixel range. */
export interface LinearScale {
  (value: number): number;
  readonly domain: readonly [number, number];
  readonly ticks: readonly number[];
}

/**
 * Tick values at a "nice" step (1, 2 or 5 times a power of ten) covering the domain, so axes read
 * 0, 0.2, 0.4 rather than 0, 0.173, 0.346.
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const raw = (max - min) / Math.max(1, count);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  // k * step, rounded to 12 significant digits: 3 * 0.2 is 0.6, not 0.6000000000000001.
  for (let k = Math.ceil(min / step - 1e-9); k * step <= max + step * 1e-9; k++)
    ticks.push(Number((k * step).toPrecision(12)));
  return ticks;
}

export function linearScale(
  domain: readonly [number, number],
  range: readonly [number, number],
  ticks?: readonly number[],
): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  const scale = ((value: number) => r0 + ((value - d0) / span) * (r1 - r0)) as LinearScale;
  return Object.assign(scale, { domain, ticks: ticks ?? niceTicks(d0, d1) });
}

/**
 * The domain widened out to whole tick steps, so the axis's top tick is at or above the largest
 * value (an axis ending at 0.01 under a mark at 0.0104 would put the mark above every label).
 */
export function niceDomain([min, max]: readonly [number, number], count = 5): [number, number] {
  const ticks = niceTicks(min, max, count);
  if (ticks.length < 2) return [min, max];
  const step = ticks[1] - ticks[0];
  const low = ticks[0] > min ? Number((ticks[0] - step).toPrecision(12)) : min;
  const high = ticks[ticks.length - 1] < max ? Number((ticks[ticks.length - 1] + step).toPrecision(12)) : max;
  return [low, high];
}

/** The [min, max] of values, widened so a flat series still gets an axis. */
export function extent(values: Iterable<number>): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === Infinity) return [0, 1];
  if (min === max) return [min - 1, max + 1];
  return [min, max];
}
