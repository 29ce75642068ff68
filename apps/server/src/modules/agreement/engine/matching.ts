/**
 * Event matching: the maximum one-to-one matching of reference events R and candidate events C within a tolerance
 * τ, optimal rather than greedy, and among all maximum matchings one whose total |Δt| is smallest (ADR 010).
 *
 * Exact rules:
 * - Times are taken to the microsecond, µs(t) = round(t × 10⁶), and so is τ; a pair may match when
 *   |µs(c) − µs(r)| ≤ µs(τ). Integers make every difference and total exact: "the smallest total" is never decided by
 *   rounding noise, and 1.3 − 1.1 (0.20000000000000018 in floating point) is within a 0.2 s tolerance, as a person
 *   reading it expects. (Video frames are milliseconds apart; a microsecond changes no real comparison.)
 * - The matching maximises the number of pairs, then minimises the total of |µs(c) − µs(r)| over the pairs.
 * - Exact ties left after that (the same count and the same total) go to the earlier events: of two equally good
 *   choices the scan, which runs from the last events back, leaves the later event unmatched.
 *
 * Algorithm (proof in ADR 010). Some optimal matching is order-preserving: if r₁ < r₂ are matched to c₂ > c₁
 * (crossed), pairing r₁–c₁ and r₂–c₂ keeps both pairs within τ and does not increase the total (the cost |x − y| on a
 * line has the Monge property, exactly so on integers). So the optimum is an order-preserving matching — the
 * longest-common-subsequence recurrence f(i, j) = best{f(i−1, j), f(i, j−1), f(i−1, j−1) + (1, |cⱼ − rᵢ|) when rᵢ
 * and cⱼ may match}, with values
 * (count, total) compared count first (higher), total second (lower). Only the cells where rᵢ and cⱼ may match are
 * stored: row i's band is a contiguous run of candidates, its ends never move backwards as i grows, and outside the
 * band a row's values follow from the previous row (left of it unchanged, right of it the band's last value). The
 * work is O(n + m + the number of pairs within τ) after sorting; events that nothing lies within τ of are set aside
 * first, so every remaining row and column belongs to a band.
 */

export interface Matching {
  /** Indices into the sorted reference and candidate times: pairs[k] = [referenceIndex, candidateIndex], in order. */
  pairs: [number, number][];
  /** Sorted copies of the inputs, which the indices refer to. */
  reference: Float64Array;
  candidate: Float64Array;
  /** Total |Δt| over the pairs in whole microseconds (the quantity minimised), times taken to the microsecond. */
  totalMicroseconds: number;
}

/** Refused when the events within τ of each other would need more memory than a request may take. */
export class TooManyPairsError extends RangeError {
  override readonly name = 'TooManyPairsError';
  constructor(readonly limit: number) {
    super(`More than ${limit.toLocaleString('en-US')} pairs of events lie within the tolerance of each other.`);
  }
}

/** Band cells the matching may hold (12 bytes each). */
export const MAX_CANDIDATE_PAIRS = 5_000_000;

/** A time (or a span) in whole microseconds: the unit every comparison of the matching is made in. */
export const microseconds = (seconds: number) => Math.round(seconds * 1e6);

function sorted(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/**
 * For each row (an event of `rows`, in µs), the first and last index of `columns` (in µs) it may match, as two arrays;
 * an empty window has last < first. Both ends are non-decreasing in the row (columns and rows sorted).
 */
function windows(rows: Float64Array, columns: Float64Array, toleranceUs: number) {
  const first = new Int32Array(rows.length);
  const last = new Int32Array(rows.length);
  let lo = 0;
  let hi = -1;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    while (lo < columns.length && columns[lo]! < r - toleranceUs) lo++;
    if (hi < lo - 1) hi = lo - 1;
    while (hi + 1 < columns.length && columns[hi + 1]! <= r + toleranceUs) hi++;
    first[i] = lo;
    last[i] = hi;
  }
  return { first, last };
}

/**
 * `presorted`: both inputs are Float64Arrays already in increasing order (the calibration's sweep), used as they are.
 */
export function matchEvents(
  referenceTimes: ArrayLike<number>,
  candidateTimes: ArrayLike<number>,
  toleranceS: number,
  options: { maxPairs?: number; presorted?: boolean } = {},
): Matching {
  const maxPairs = options.maxPairs ?? MAX_CANDIDATE_PAIRS;
  const reference = options.presorted ? (referenceTimes as Float64Array) : sorted(referenceTimes);
  const candidate = options.presorted ? (candidateTimes as Float64Array) : sorted(candidateTimes);
  const toleranceUs = microseconds(toleranceS);
  // Rounding keeps the order, so the µs arrays are sorted too.
  const referenceUs = reference.map(microseconds);
  const candidateUs = candidate.map(microseconds);
  const none: Matching = { pairs: [], reference, candidate, totalMicroseconds: 0 };
  if (reference.length === 0 || candidate.length === 0) return none;

  // Set aside the events nothing lies within τ of: what remains has a non-empty band in every row and column.
  const full = windows(referenceUs, candidateUs, toleranceUs);
  const usedColumn = new Uint8Array(candidate.length);
  const rowIndex: number[] = [];
  for (let i = 0; i < reference.length; i++) {
    if (full.last[i]! < full.first[i]!) continue;
    rowIndex.push(i);
    usedColumn.fill(1, full.first[i]!, full.last[i]! + 1);
  }
  const columnIndex: number[] = [];
  for (let j = 0; j < candidate.length; j++) if (usedColumn[j]) columnIndex.push(j);
  if (rowIndex.length === 0) return none;
  const r = new Float64Array(rowIndex.length);
  for (let k = 0; k < r.length; k++) r[k] = referenceUs[rowIndex[k]!]!;
  const c = new Float64Array(columnIndex.length);
  for (let k = 0; k < c.length; k++) c[k] = candidateUs[columnIndex[k]!]!;
  const n = r.length;
  const m = c.length;

  // Bands in 1-based DP coordinates: row i (1…n) covers columns lo[i]…hi[i] (1…m); cells stored row after row.
  const band = windows(r, c, toleranceUs);
  const lo = new Int32Array(n + 1);
  const hi = new Int32Array(n + 1);
  const offset = new Float64Array(n + 2);
  for (let i = 1; i <= n; i++) {
    lo[i] = band.first[i - 1]! + 1;
    hi[i] = band.last[i - 1]! + 1;
    offset[i + 1] = offset[i]! + (hi[i]! - lo[i]! + 1);
  }
  const cells = offset[n + 1]!;
  if (cells > maxPairs) throw new TooManyPairsError(maxPairs);
  const cellCount = new Int32Array(cells);
  const cellCost = new Float64Array(cells);
  // T[i] = f(i, hi[i]): every column right of row i's band has this value in row i.
  const endCount = new Int32Array(n + 1);
  const endCost = new Float64Array(n + 1);
  // The latest value of each column (the row where it was last in a band, or the row before the current one).
  const columnCount = new Int32Array(m + 1);
  const columnCost = new Float64Array(m + 1);

  let previousHi = 0;
  let previousEndCount = 0;
  let previousEndCost = 0;
  for (let i = 1; i <= n; i++) {
    const ri = r[i - 1]!;
    const first = lo[i]!;
    // f(i−1, first−1) (the first cell's diagonal), which is also f(i, first−1): left of the band nothing changes.
    // Column j's value in row i−1 is: 0 for j = 0; the previous band's last value right of that band; else stored.
    const before = first - 1;
    let diagonalCount = before === 0 ? 0 : before > previousHi ? previousEndCount : columnCount[before]!;
    let diagonalCost = before === 0 ? 0 : before > previousHi ? previousEndCost : columnCost[before]!;
    let leftCount = diagonalCount;
    let leftCost = diagonalCost;
    let cell = offset[i]!;
    for (let j = first; j <= hi[i]!; j++, cell++) {
      const aboveCount = j > previousHi ? previousEndCount : columnCount[j]!;
      const aboveCost = j > previousHi ? previousEndCost : columnCost[j]!;
      let bestCount = aboveCount;
      let bestCost = aboveCost;
      if (leftCount > bestCount || (leftCount === bestCount && leftCost < bestCost)) {
        bestCount = leftCount;
        bestCost = leftCost;
      }
      const matchCount = diagonalCount + 1;
      const matchCost = diagonalCost + Math.abs(c[j - 1]! - ri);
      if (matchCount > bestCount || (matchCount === bestCount && matchCost < bestCost)) {
        bestCount = matchCount;
        bestCost = matchCost;
      }
      cellCount[cell] = bestCount;
      cellCost[cell] = bestCost;
      columnCount[j] = bestCount;
      columnCost[j] = bestCost;
      leftCount = bestCount;
      leftCost = bestCost;
      diagonalCount = aboveCount;
      diagonalCost = aboveCost;
    }
    endCount[i] = leftCount;
    endCost[i] = leftCost;
    previousHi = hi[i]!;
    previousEndCount = leftCount;
    previousEndCost = leftCost;
  }

  // Back from (n, m): up when that loses nothing, else left, else the cell is a pair.
  const valueCount = (i: number, j: number) =>
    i === 0 || j === 0 ? 0 : j > hi[i]! ? endCount[i]! : cellCount[offset[i]! + j - lo[i]!]!;
  const valueCost = (i: number, j: number) =>
    i === 0 || j === 0 ? 0 : j > hi[i]! ? endCost[i]! : cellCost[offset[i]! + j - lo[i]!]!;
  const pairs: [number, number][] = [];
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    if (j < lo[i]!) {
      i--;
      continue;
    }
    const count = valueCount(i, j);
    const cost = valueCost(i, j);
    if (valueCount(i - 1, j) === count && valueCost(i - 1, j) === cost) {
      i--;
    } else if (j > hi[i]!) {
      j = hi[i]!;
    } else if (j > lo[i]! && valueCount(i, j - 1) === count && valueCost(i, j - 1) === cost) {
      j--;
    } else {
      pairs.push([rowIndex[i - 1]!, columnIndex[j - 1]!]);
      i--;
      j--;
    }
  }
  pairs.reverse();
  return { pairs, reference, candidate, totalMicroseconds: n > 0 ? endCost[n]! : 0 };
}
