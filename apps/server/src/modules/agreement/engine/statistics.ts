/** The few statistics the agreement figures need, each with its rule for too little data (null, never NaN). */

export function mean(values: ArrayLike<number>): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

/** The middle value, or the mean of the two middle ones for an even count. */
export function median(values: ArrayLike<number>): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The sample standard deviation (divisor n − 1); null below two values. */
export function sampleSd(values: ArrayLike<number>): number | null {
  if (values.length < 2) return null;
  const centre = mean(values)!;
  let squares = 0;
  for (let i = 0; i < values.length; i++) squares += (values[i]! - centre) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}

/**
 * Pearson's r of the pairs (x, y) and the least-squares slope of y on x. r is null below two pairs or when either
 * side does not vary; the slope is null when x does not vary.
 */
export function correlation(x: ArrayLike<number>, y: ArrayLike<number>): { r: number | null; slope: number | null } {
  const n = Math.min(x.length, y.length);
  if (n < 2) return { r: null, slope: null };
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const slope = sxx > 0 ? sxy / sxx : null;
  const r = sxx > 0 && syy > 0 ? Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy))) : null;
  return { r, slope };
}
