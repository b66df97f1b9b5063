import { seededRandom } from '../study/random';
import { quantile } from './quantiles';

/** One cluster's counts: a repository's resolved steps of its steps, or successful chains of its chains. */
export interface ClusterCount {
  readonly successes: number;
  readonly total: number;
}

export interface BootstrapInterval {
  readonly low: number;
  readonly high: number;
  readonly clusters: number;
  readonly replicates: number;
  readonly seed: number;
}

export const BOOTSTRAP_REPLICATES = 2000;
export const BOOTSTRAP_SEED = 1;

/**
 * A 95% percentile interval of a pooled rate (Σ successes / Σ total) that resamples whole
 * clusters with replacement: steps of one repository are not independent (ChainSWE has 12 chains
 * of tobymao/sqlglot), so resampling steps would understate the spread. Seeded (mulberry32): the
 * same records give the same interval on any machine. Clusters with no total are dropped; no
 * cluster gives NaN bounds.
 */
export function clusterBootstrap(
  clusters: readonly ClusterCount[],
  replicates = BOOTSTRAP_REPLICATES,
  seed = BOOTSTRAP_SEED,
): BootstrapInterval {
  const live = clusters.filter((c) => c.total > 0);
  if (live.length === 0) return { low: NaN, high: NaN, clusters: 0, replicates, seed };
  const random = seededRandom(seed);
  const rates: number[] = [];
  for (let b = 0; b < replicates; b++) {
    let s = 0;
    let t = 0;
    for (let i = 0; i < live.length; i++) {
      const c = live[Math.floor(random() * live.length)];
      s += c.successes;
      t += c.total;
    }
    rates.push(s / t);
  }
  return { low: quantile(rates, 0.025), high: quantile(rates, 0.975), clusters: live.length, replicates, seed };
}
