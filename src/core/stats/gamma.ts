// The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), by its series below
// a + 1 and Lentz's continued fraction above (Press et al., Numerical Recipes, 3rd ed., §6.2),
// with ln Γ by Lanczos's approximation (g = 7, 9 terms; relative error below 1e-15). It gives the
// chi-square survival function, Q(k/2, x/2), and the normal tails, erfc(x) = Q(1/2, x²).

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPS = 1e-16;
const TINY = 1e-300;

/** Q(a, x) for a > 0, x ≥ 0. */
export function upperGammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const lead = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    // P(a, x) by its series; Q = 1 − P.
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 10000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) break;
    }
    return 1 - sum * Math.exp(lead);
  }
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.exp(lead) * h;
}

/** P(X > x) for X ~ χ²(k). */
export function chiSquareSurvival(x: number, k: number): number {
  return upperGammaQ(k / 2, x / 2);
}

/** Two-sided normal p-value of a z statistic: P(|Z| > |z|) = erfc(|z| / √2). */
export function normalTwoSided(z: number): number {
  const a = Math.abs(z);
  return a === 0 ? 1 : upperGammaQ(0.5, (a * a) / 2);
}
