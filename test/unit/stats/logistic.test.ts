// The logistic regression of `codethread` analyses (CodeThread Section 5.2, Table 4) against
// statsmodels' Logit (Debian's python3-statsmodels, installed by scripts/provision-python.sh,
// which the unit level runs first) on the same design matrix: coefficients, standard errors,
// p-values, 95% intervals, McFadden R² and the LR test to 1e-6. Separation and a singular design
// give a reason, not numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { logisticRegression, type LogisticFit } from '../../../src/core/stats/logistic';
import { chiSquareSurvival, normalTwoSided } from '../../../src/core/stats/gamma';

/** Debian's python3 (where apt puts statsmodels), else the first python3 on PATH. */
function statsmodelsPython(): string {
  for (const py of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(py, ['-c', 'import statsmodels'], { stdio: 'ignore' });
      return py;
    } catch {
      // try the next
    }
  }
  throw new Error('no python3 imports statsmodels: run scripts/provision-python.sh (as root)');
}

/** A seeded design like Table 4's: deltas, Jaccards, a binary IEC, a difficulty and a fixed effect. */
function design(n: number, seed: number) {
  let state = seed;
  const rand = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const normal = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  const columns = ['dLLOC_PR2', 'dCC_PR1', 'file_jaccard', 'IEC', 'loo_resolve', 'model_b'];
  const rows: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = [normal() * 5, Math.round(normal() * 2), rand(), rand() < 0.4 ? 1 : 0, rand(), i % 3 === 0 ? 1 : 0];
    const eta = -0.3 + 0.08 * r[0] + 0.1 * r[1] - 0.5 * r[2] + 0.6 * r[3] + 1.2 * r[4] + 0.3 * r[5];
    rows.push(r);
    y.push(rand() < 1 / (1 + Math.exp(-eta)) ? 1 : 0);
  }
  return { columns, rows, y };
}

const SCRIPT = `
import json, sys
import numpy as np
import statsmodels.api as sm
d = json.load(sys.stdin)
x = sm.add_constant(np.array(d["rows"], dtype=float), has_constant="add")
r = sm.Logit(np.array(d["y"], dtype=float), x).fit(disp=0, tol=1e-12, maxiter=200)
ci = r.conf_int(0.05)
print(json.dumps({"params": list(r.params), "bse": list(r.bse), "p": list(r.pvalues), "low": list(ci[:, 0]),
  "high": list(ci[:, 1]), "r2": r.prsquared, "llr": r.llr, "llr_p": r.llr_pvalue, "df": r.df_model, "llf": r.llf}))
`;

test('the fit equals statsmodels Logit on the same design matrix, to 1e-6', () => {
  const d = design(160, 7);
  const ours = logisticRegression(d.columns, d.rows, d.y);
  assert.equal(ours.kind, 'fit', ours.kind !== 'fit' ? ours.reason : '');
  const fit = ours as LogisticFit;
  const ref = JSON.parse(
    execFileSync(statsmodelsPython(), ['-c', SCRIPT], { input: JSON.stringify(d), encoding: 'utf8' }),
  ) as Record<string, number[] & number>;
  const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-6, `${what}: ${a} vs ${b}`);
  fit.terms.forEach((t, j) => {
    close(t.coefficient, ref.params[j], `${t.name} coefficient`);
    close(t.standardError, ref.bse[j], `${t.name} standard error`);
    close(t.p, ref.p[j], `${t.name} p`);
    close(t.low, ref.low[j], `${t.name} 95% low`);
    close(t.high, ref.high[j], `${t.name} 95% high`);
    close(t.oddsRatio, Math.exp(ref.params[j]), `${t.name} odds ratio`);
  });
  close(fit.mcFaddenR2, ref.r2, 'McFadden R²');
  close(fit.lrStatistic, ref.llr, 'LR χ²');
  close(fit.lrP, ref.llr_p, 'LR p');
  close(fit.logLikelihood, ref.llf, 'log-likelihood');
  assert.equal(fit.lrDf, ref.df);
  assert.deepEqual(
    fit.terms.map((t) => t.name),
    ['const', ...d.columns],
  );
});

test('tail functions: scipy reference values', () => {
  // scipy.stats (Debian scipy 1.10): chi2.sf(36.1, 18) = 0.006850748113960073 (Table 4's LR test),
  // 2 * norm.sf(1.96) = 0.04999579029644087, 2 * norm.sf(0.5) = 0.6170750774519738.
  assert.ok(Math.abs(chiSquareSurvival(36.1, 18) - 0.006850748113960073) < 1e-12, String(chiSquareSurvival(36.1, 18)));
  assert.ok(Math.abs(normalTwoSided(1.96) - 0.04999579029644087) < 1e-12);
  assert.ok(Math.abs(normalTwoSided(-0.5) - 0.6170750774519738) < 1e-12);
});

test('separation gives a reason, not numbers', () => {
  const rows = [[0], [1], [2], [3], [4], [5], [6], [7]];
  const r = logisticRegression(['x'], rows, [0, 0, 0, 0, 1, 1, 1, 1]);
  assert.equal(r.kind, 'separation');
  assert.match(r.kind === 'separation' ? r.reason : '', /separate the outcome.*estimates do not exist/);
});

test('a singular design names the column', () => {
  const rows = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => [i % 3, (i * 7) % 5, 2 * (i % 3) + 1]);
  const r = logisticRegression(['a', 'b', 'c'], rows, [0, 1, 0, 1, 1, 0, 0, 1, 1, 0]);
  assert.equal(r.kind, 'singular');
  assert.match(r.kind === 'singular' ? r.reason : '', /column c is a linear combination/);
});
