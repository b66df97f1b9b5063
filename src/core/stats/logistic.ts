// Logistic regression by maximum likelihood (Newton–Raphson on the log-likelihood), reported as
// CodeThread's Table 4 reports it (Section 5.2): odds ratios with 95% Wald intervals and p-values,
// McFadden's R² and the likelihood-ratio test against the intercept-only model. The numbers are
// statsmodels' Logit (`fit()`, `prsquared`, `llr`, `llr_pvalue`); test/unit/stats/logistic.test.ts
// checks them against statsmodels itself. A design whose estimates do not exist gives a reason
// instead of numbers: a column that is a linear combination of others (singular), or an outcome
// the predictors separate (the likelihood has no maximum).
import { chiSquareSurvival, normalTwoSided } from './gamma';
import { Z_95 } from './proportion';

export interface LogisticTerm {
  readonly name: string;
  readonly coefficient: number;
  readonly standardError: number;
  readonly z: number;
  readonly p: number;
  readonly low: number;
  readonly high: number;
  readonly oddsRatio: number;
  readonly oddsRatioLow: number;
  readonly oddsRatioHigh: number;
}

export interface LogisticFit {
  readonly kind: 'fit';
  /** The intercept first (`const`), then the columns in order. */
  readonly terms: readonly LogisticTerm[];
  readonly n: number;
  readonly logLikelihood: number;
  readonly nullLogLikelihood: number;
  readonly mcFaddenR2: number;
  readonly lrStatistic: number;
  readonly lrDf: number;
  readonly lrP: number;
  readonly iterations: number;
}

export type LogisticResult =
  | LogisticFit
  | { readonly kind: 'singular'; readonly reason: string }
  | { readonly kind: 'separation'; readonly reason: string };

const sigmoid = (t: number) => (t >= 0 ? 1 / (1 + Math.exp(-t)) : Math.exp(t) / (1 + Math.exp(t)));

/** Solves A x = b (A symmetric positive definite) by Cholesky; undefined when A is not. */
function choleskySolveInverse(a: number[][]): { solve(b: number[]): number[]; inverse(): number[][] } | undefined {
  const n = a.length;
  const l = a.map(() => new Array<number>(n).fill(0));
  const scale = Math.max(...a.map((r, i) => Math.abs(r[i])), 1e-300);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i][j];
      for (let k = 0; k < j; k++) s -= l[i][k] * l[j][k];
      if (i === j) {
        if (s <= scale * 1e-12) return undefined;
        l[i][i] = Math.sqrt(s);
      } else l[i][j] = s / l[j][j];
    }
  }
  const solve = (b: number[]) => {
    const y = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      let s = b[i];
      for (let k = 0; k < i; k++) s -= l[i][k] * y[k];
      y[i] = s / l[i][i];
    }
    const x = new Array<number>(n);
    for (let i = n - 1; i >= 0; i--) {
      let s = y[i];
      for (let k = i + 1; k < n; k++) s -= l[k][i] * x[k];
      x[i] = s / l[i][i];
    }
    return x;
  };
  return { solve, inverse: () => a.map((_, j) => solve(a.map((__, i) => (i === j ? 1 : 0)))) };
}

/** The first column (in order) that is a linear combination of the ones before it, if any. */
function dependentColumn(x: readonly number[][], names: readonly string[]): string | undefined {
  const basis: number[][] = [];
  for (let j = 0; j < names.length; j++) {
    let v = x.map((row) => row[j]);
    const norm0 = Math.hypot(...v);
    for (const q of basis) {
      const dot = v.reduce((s, vi, i) => s + vi * q[i], 0);
      v = v.map((vi, i) => vi - dot * q[i]);
    }
    const norm = Math.hypot(...v);
    if (norm0 === 0 || norm <= 1e-9 * norm0) return names[j];
    basis.push(v.map((vi) => vi / norm));
  }
  return undefined;
}

/**
 * Fits logit P(y = 1) = β0 + Σ βj xj. `columns`: the predictors' names; `rows`: one array of
 * predictor values per observation; `y`: 0 or 1 each.
 */
export function logisticRegression(
  columns: readonly string[],
  rows: readonly (readonly number[])[],
  y: readonly number[],
): LogisticResult {
  const names = ['const', ...columns];
  const x = rows.map((r) => [1, ...r]);
  const n = x.length;
  const p = names.length;
  if (n <= p) return { kind: 'singular', reason: `${n} observation(s) for ${p} coefficients: the design is singular` };
  const dependent = dependentColumn(x, names);
  if (dependent !== undefined)
    return {
      kind: 'singular',
      reason: `the design is singular: ${dependent === 'const' ? 'the intercept' : `column ${dependent}`} is a linear combination of ${dependent === 'const' ? 'nothing (all zero)' : 'the columns before it (the intercept included)'}`,
    };
  let beta = new Array<number>(p).fill(0);
  let iterations = 0;
  let converged = false;
  let information: number[][] = [];
  for (; iterations < 100 && !converged; iterations++) {
    const mu = x.map((r) => sigmoid(r.reduce((s, v, j) => s + v * beta[j], 0)));
    const gradient = names.map((_, j) => x.reduce((s, r, i) => s + r[j] * (y[i] - mu[i]), 0));
    information = names.map((_, j) =>
      names.map((__, k) => x.reduce((s, r, i) => s + r[j] * r[k] * mu[i] * (1 - mu[i]), 0)),
    );
    const chol = choleskySolveInverse(information);
    if (!chol) break;
    const step = chol.solve(gradient);
    beta = beta.map((b, j) => b + step[j]);
    converged = Math.max(...step.map(Math.abs)) < 1e-10;
  }
  const eta = x.map((r) => r.reduce((s, v, j) => s + v * beta[j], 0));
  const extreme = eta.filter((e) => Math.abs(e) > 30).length;
  if (!converged || extreme > 0)
    return {
      kind: 'separation',
      reason: `the predictors separate the outcome (${extreme} of ${n} observation(s) fitted with probability 0 or 1${converged ? '' : ', no convergence in 100 iterations'}): maximum-likelihood estimates do not exist; drop or merge the separating column (often a fixed effect whose level has one outcome only)`,
    };
  const mu = eta.map(sigmoid);
  information = names.map((_, j) =>
    names.map((__, k) => x.reduce((s, r, i) => s + r[j] * r[k] * mu[i] * (1 - mu[i]), 0)),
  );
  const chol = choleskySolveInverse(information);
  if (!chol) return { kind: 'singular', reason: 'the information matrix is singular at the estimate' };
  const covariance = chol.inverse();
  const logLikelihood = y.reduce((s, yi, i) => s + yi * Math.log(mu[i]) + (1 - yi) * Math.log(1 - mu[i]), 0);
  const mean = y.reduce((s, v) => s + v, 0) / n;
  const nullLogLikelihood = n * (mean * Math.log(mean) + (1 - mean) * Math.log(1 - mean));
  const lrStatistic = 2 * (logLikelihood - nullLogLikelihood);
  const terms = names.map((name, j): LogisticTerm => {
    const coefficient = beta[j];
    const standardError = Math.sqrt(covariance[j][j]);
    const z = coefficient / standardError;
    const low = coefficient - Z_95 * standardError;
    const high = coefficient + Z_95 * standardError;
    return {
      name,
      coefficient,
      standardError,
      z,
      p: normalTwoSided(z),
      low,
      high,
      oddsRatio: Math.exp(coefficient),
      oddsRatioLow: Math.exp(low),
      oddsRatioHigh: Math.exp(high),
    };
  });
  return {
    kind: 'fit',
    terms,
    n,
    logLikelihood,
    nullLogLikelihood,
    mcFaddenR2: 1 - logLikelihood / nullLogLikelihood,
    lrStatistic,
    lrDf: p - 1,
    lrP: chiSquareSurvival(lrStatistic, p - 1),
    iterations,
  };
}
