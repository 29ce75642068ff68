/**
 * Group statistics for a batch's results (issue 23): descriptives per group and the tests a reviewer expects, each
 * defined as R defines it, so a figure printed in a paper can be checked against `t.test`, `wilcox.test`,
 * `oneway.test` and `kruskal.test`. The distributions' tails come from stdlib (ports of Cephes/Boost); everything
 * else is the formula, written out. Pure functions: missing values (NaN, null) are the caller's to drop.
 */
import gammaln from '@stdlib/math-base-special-gammaln';
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import fCdf from '@stdlib/stats-base-dists-f-cdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import tCdf from '@stdlib/stats-base-dists-t-cdf';

export interface Descriptives {
  n: number;
  mean: number | null;
  /** Sample standard deviation (n − 1); null below 2 values. */
  sd: number | null;
  /** sd / √n; null below 2 values. */
  sem: number | null;
  median: number | null;
  /** R's default quantiles (type 7). */
  q1: number | null;
  q3: number | null;
  iqr: number | null;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: readonly number[]) => sum(values) / values.length;

/** Sample variance (n − 1 in the denominator), two passes. */
function variance(values: readonly number[]): number {
  const centre = mean(values);
  return sum(values.map((value) => (value - centre) ** 2)) / (values.length - 1);
}

/** R's `quantile(x, p, type = 7)` of sorted values: h = (n − 1)·p, linear between the order statistics around h. */
export function quantile7(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const low = Math.floor(h);
  const high = Math.min(low + 1, sorted.length - 1);
  return (sorted[low] as number) + (h - low) * ((sorted[high] as number) - (sorted[low] as number));
}

export function describe(values: readonly number[]): Descriptives {
  const n = values.length;
  if (n === 0) return { n, mean: null, sd: null, sem: null, median: null, q1: null, q3: null, iqr: null };
  const sorted = [...values].sort((a, b) => a - b);
  const sd = n > 1 ? Math.sqrt(variance(values)) : null;
  const q1 = quantile7(sorted, 0.25);
  const q3 = quantile7(sorted, 0.75);
  return {
    n,
    mean: mean(values),
    sd,
    sem: sd === null ? null : sd / Math.sqrt(n),
    median: quantile7(sorted, 0.5),
    q1,
    q3,
    iqr: q3 - q1,
  };
}

export interface TestResult {
  /** The test's name as a methods section would give it. */
  test: string;
  statistic: number;
  /** Degrees of freedom (df1 and df2 for F); null when the test has none. */
  df: number | [number, number] | null;
  /** Two-sided p-value. */
  p: number;
}

/** Welch's two-sample t-test, two-sided: R's `t.test(a, b, var.equal = FALSE)`. Needs 2+ values per group. */
export function welchT(a: readonly number[], b: readonly number[]): TestResult {
  const va = variance(a) / a.length;
  const vb = variance(b) / b.length;
  const se = Math.sqrt(va + vb);
  const t = (mean(a) - mean(b)) / se;
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  return { test: "Welch's t-test", statistic: t, df, p: 2 * tCdf(-Math.abs(t), df) };
}

/** Ranks 1…n of the values, ties given their mean rank; and the sizes of the tie groups. */
export function ranks(values: readonly number[]): { ranks: number[]; ties: number[] } {
  const order = values.map((value, index) => ({ value, index })).sort((x, y) => x.value - y.value);
  const out = new Array<number>(values.length);
  const ties: number[] = [];
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && order[end]!.value === order[start]!.value) end++;
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) out[order[k]!.index] = rank;
    ties.push(end - start);
    start = end;
  }
  return { ranks: out, ties };
}

/**
 * P(W ≤ w) for the Mann–Whitney statistic of samples of m and n values without ties: the share of the C(m+n, m)
 * ways to choose the first sample's ranks whose W (rank sum − m(m+1)/2) is at most w, counted by the recurrence
 * c(w; m, n) = c(w − n; m − 1, n) + c(w; m, n − 1).
 */
function wilcoxonCdf(w: number, m: number, n: number): number {
  const maxW = m * n;
  if (w < 0) return 0;
  if (w >= maxW) return 1;
  // counts[j][u]: the ways for j of the first i values (in increasing order) to be the first sample's with W = u
  // so far. Value i joins the first sample (W grows by the i − j values of the second sample below it) or the
  // second (W stays).
  let counts: Float64Array[] = Array.from({ length: m + 1 }, (_, j) => {
    const row = new Float64Array(maxW + 1);
    if (j === 0) row[0] = 1;
    return row;
  });
  for (let i = 1; i <= m + n; i++) {
    const next = counts.map((row) => new Float64Array(row.length));
    for (let j = 0; j <= Math.min(i, m); j++) {
      const below = i - j;
      if (below > n) continue;
      const target = next[j] as Float64Array;
      if (j > 0) {
        const from = counts[j - 1] as Float64Array;
        for (let u = 0; u + below <= maxW; u++) target[u + below]! += from[u] as number;
      }
      if (below > 0) {
        const from = counts[j] as Float64Array;
        for (let u = 0; u <= maxW; u++) target[u]! += from[u] as number;
      }
    }
    counts = next;
  }
  const all = counts[m] as Float64Array;
  let total = 0;
  let below = 0;
  for (let u = 0; u <= maxW; u++) {
    total += all[u] as number;
    if (u <= w) below += all[u] as number;
  }
  return below / total;
}

/** Samples below this size each, without ties, get R's exact p-value (as `wilcox.test`'s default). */
export const EXACT_MANN_WHITNEY_BELOW = 50;

/**
 * The Mann–Whitney U test (Wilcoxon rank-sum), two-sided, as R's `wilcox.test(a, b)`: W = the first sample's rank
 * sum − m(m+1)/2. Exact p from the permutation distribution when both samples have fewer than 50 values and there
 * are no ties: p = min(1, 2·min(P(W ≤ w), P(W ≥ w))); otherwise the normal approximation with R's continuity
 * correction and tie correction of the variance. `test` says which.
 */
export function mannWhitney(a: readonly number[], b: readonly number[]): TestResult {
  const m = a.length;
  const n = b.length;
  const { ranks: ranked, ties } = ranks([...a, ...b]);
  const w = sum(ranked.slice(0, m)) - (m * (m + 1)) / 2;
  const tied = ties.some((size) => size > 1);
  if (!tied && m < EXACT_MANN_WHITNEY_BELOW && n < EXACT_MANN_WHITNEY_BELOW) {
    const lower = w > (m * n) / 2 ? 1 - wilcoxonCdf(w - 1, m, n) : wilcoxonCdf(w, m, n);
    return { test: 'Mann–Whitney U test (exact)', statistic: w, df: null, p: Math.min(1, 2 * lower) };
  }
  const total = m + n;
  const tieTerm = sum(ties.map((size) => size ** 3 - size)) / (total * (total - 1));
  const sigma = Math.sqrt(((m * n) / 12) * (total + 1 - tieTerm));
  const centred = w - (m * n) / 2;
  const z = (centred - Math.sign(centred) * 0.5) / sigma;
  const p = 2 * Math.min(normalCdf(z, 0, 1), normalCdf(-z, 0, 1));
  return {
    test: 'Mann–Whitney U test (normal approximation, continuity and tie corrections)',
    statistic: w,
    df: null,
    p: Math.min(1, p),
  };
}

export interface EffectSize {
  /** Hedges' g: Cohen's d with the pooled SD, times J. */
  g: number;
  d: number;
  /** J = Γ(df/2) / (√(df/2)·Γ((df − 1)/2)), df = m + n − 2: the exact small-sample correction. */
  j: number;
}

/** Hedges' g of a minus b, with the exact correction factor J (not the approximation 1 − 3/(4df − 1)). */
export function hedgesG(a: readonly number[], b: readonly number[]): EffectSize {
  const df = a.length + b.length - 2;
  const pooled = Math.sqrt(((a.length - 1) * variance(a) + (b.length - 1) * variance(b)) / df);
  const d = (mean(a) - mean(b)) / pooled;
  const j = Math.exp(gammaln(df / 2) - gammaln((df - 1) / 2)) / Math.sqrt(df / 2);
  return { g: j * d, d, j };
}

/** Welch's one-way ANOVA: R's `oneway.test(value ~ group, var.equal = FALSE)`. Needs 2+ values per group. */
export function welchAnova(groups: readonly (readonly number[])[]): TestResult {
  const k = groups.length;
  const weights = groups.map((group) => group.length / variance(group));
  const totalWeight = sum(weights);
  const means = groups.map(mean);
  const grand = sum(weights.map((weight, i) => weight * (means[i] as number))) / totalWeight;
  const tmp =
    sum(groups.map((group, i) => (1 - (weights[i] as number) / totalWeight) ** 2 / (group.length - 1))) / (k * k - 1);
  const between = sum(weights.map((weight, i) => weight * ((means[i] as number) - grand) ** 2));
  const f = between / ((k - 1) * (1 + 2 * (k - 2) * tmp));
  const df1 = k - 1;
  const df2 = 1 / (3 * tmp);
  return { test: "Welch's one-way ANOVA", statistic: f, df: [df1, df2], p: 1 - fCdf(f, df1, df2) };
}

/** The Kruskal–Wallis rank-sum test with the tie correction: R's `kruskal.test(value ~ group)`. */
export function kruskalWallis(groups: readonly (readonly number[])[]): TestResult {
  const all = groups.flat();
  const n = all.length;
  const { ranks: ranked, ties } = ranks(all);
  let offset = 0;
  let between = 0;
  for (const group of groups) {
    const rankSum = sum(ranked.slice(offset, offset + group.length));
    between += rankSum ** 2 / group.length;
    offset += group.length;
  }
  const h =
    ((12 * between) / (n * (n + 1)) - 3 * (n + 1)) / (1 - sum(ties.map((size) => size ** 3 - size)) / (n ** 3 - n));
  const df = groups.length - 1;
  return { test: 'Kruskal–Wallis rank-sum test', statistic: h, df, p: 1 - chisquareCdf(h, df) };
}
