/**
 * The numpy / OpenCV numerics the `eztrack` tracker reproduces, one function each, on typed arrays without
 * allocation: numpy's rounding and slicing of the window, `np.percentile`'s interpolation, OpenCV's grey opening
 * and numpy's pairwise summation (which fixes the last bits of the centre of mass).
 */

/** np.around / Python's round for a float: the nearest integer, halves to the even one. */
export function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor; // exact for doubles
  if (fraction < 0.5) return floor;
  if (fraction > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * The rows (or columns) numpy selects with `slice(lo if lo > 0 else 0, hi)` on an axis of `n`: a negative end
 * counts from the end, both ends clip to [0, n]; [start, end) with end ≥ start.
 */
export function numpySliceBounds(lo: number, hi: number, n: number): [number, number] {
  const start = Math.min(lo > 0 ? lo : 0, n);
  let end = hi < 0 ? hi + n : hi;
  if (end < 0) end = 0;
  if (end > n) end = n;
  return [start, Math.max(start, end)];
}

/**
 * np.percentile's default ("linear") result from the two order statistics around the virtual index
 * (n − 1)·q/100: numpy ≥ 1.22's `_lerp` — a + (b − a)·t, or b − (b − a)·(1 − t) when t ≥ 0.5 — whose exact bits
 * decide ties at the threshold. Returns the ranks to look up and combines the values in `interpolate`.
 */
export function percentileRanks(count: number, percent: number): { low: number; high: number; t: number } {
  const virtual = (count - 1) * (percent / 100);
  if (virtual >= count - 1) return { low: count - 1, high: count - 1, t: virtual + 1 };
  const low = Math.floor(virtual);
  return { low, high: low + 1, t: virtual - low };
}

export function interpolate(a: number, b: number, t: number): number {
  const difference = b - a;
  return t >= 0.5 ? b - difference * (1 - t) : a + difference * t;
}

/** Scratch for one-dimensional min/max filters over lines of up to `length` values with windows up to `k`. */
export interface LineScratch {
  padded: Float64Array;
  prefix: Float64Array;
  suffix: Float64Array;
}

export function lineScratch(length: number, k: number): LineScratch {
  const size = length + k;
  return { padded: new Float64Array(size), prefix: new Float64Array(size), suffix: new Float64Array(size) };
}

/**
 * One pass of a k-wide min (erode) or max (dilate) along rows (`along` = "rows") or columns of a width × height
 * image, from `source` into `target`. OpenCV's window for both is [x − ⌊k/2⌋, x − ⌊k/2⌋ + k − 1] (the kernel is
 * not mirrored for dilate, so an even k shifts), and its default border value (morphologyDefaultBorderValue)
 * never wins: outside pixels take no part. Van Herk/Gil-Werman: block prefix and suffix extrema, ~3 comparisons a
 * pixel whatever k is.
 */
export function minMaxPass(
  source: Float64Array,
  target: Float64Array,
  width: number,
  height: number,
  k: number,
  erode: boolean,
  along: 'rows' | 'columns',
  scratch: LineScratch,
): void {
  const { padded, prefix, suffix } = scratch;
  const before = k >> 1;
  const lines = along === 'rows' ? height : width;
  const length = along === 'rows' ? width : height;
  const step = along === 'rows' ? 1 : width;
  const lineStep = along === 'rows' ? width : 1;
  const paddedLength = length + k - 1;
  const border = erode ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  for (let line = 0; line < lines; line++) {
    const base = line * lineStep;
    for (let j = 0; j < before; j++) padded[j] = border;
    for (let j = 0, at = base; j < length; j++, at += step) padded[before + j] = source[at] as number;
    for (let j = before + length; j < paddedLength; j++) padded[j] = border;
    // Prefix extrema restart at every multiple of k, suffix extrema end at each block's last element.
    let inBlock = 0;
    let running = 0;
    for (let j = 0; j < paddedLength; j++) {
      const value = padded[j] as number;
      running = inBlock === 0 ? value : erode ? (value < running ? value : running) : value > running ? value : running;
      prefix[j] = running;
      if (++inBlock === k) inBlock = 0;
    }
    running = 0;
    for (let j = paddedLength - 1; j >= 0; j--) {
      const value = padded[j] as number;
      const blockEnd = j === paddedLength - 1 || (j + 1) % k === 0;
      running = blockEnd ? value : erode ? (value < running ? value : running) : value > running ? value : running;
      suffix[j] = running;
    }
    for (let j = 0, at = base; j < length; j++, at += step) {
      const left = suffix[j] as number;
      const right = prefix[j + k - 1] as number;
      target[at] = erode ? (left < right ? left : right) : left > right ? left : right;
    }
  }
}

/** `cv2.morphologyEx(src, cv2.MORPH_OPEN, np.ones((k, k)))`: erode, then dilate, each a row and a column pass. */
export function openingInto(
  source: Float64Array,
  target: Float64Array,
  between: Float64Array,
  width: number,
  height: number,
  k: number,
  scratch: LineScratch,
): void {
  minMaxPass(source, between, width, height, k, true, 'rows', scratch);
  minMaxPass(between, target, width, height, k, true, 'columns', scratch);
  minMaxPass(target, between, width, height, k, false, 'rows', scratch);
  minMaxPass(between, target, width, height, k, false, 'columns', scratch);
}

/** Blocks numpy sums with 8 accumulators before splitting in two (PW_BLOCKSIZE). */
const PAIRWISE_BLOCK = 128;

/**
 * numpy's pairwise summation (`np.add.reduce` over a contiguous float64 array, as `arr.sum()` runs on a
 * C-ordered image) of three sequences at once — value, value·row, value·column over the row-major image — so
 * scipy.ndimage.center_of_mass's three sums come out bit for bit: below 8 values a plain loop; up to 128,
 * 8 interleaved accumulators combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)) then the remainder;
 * above, the halves (the first rounded down to a multiple of 8), summed apart and added. Blocks wholly outside
 * [first, last] (the non-zero span) sum to +0 and are skipped, which changes no bit.
 */
export class PairwiseMoments {
  /** Σv, Σv·row, Σv·column after `sum`. */
  total = 0;
  rows = 0;
  columns = 0;
  private readonly depthResults = new Float64Array(3 * 64);
  private readonly rowOf = new Float64Array(PAIRWISE_BLOCK);
  private readonly columnOf = new Float64Array(PAIRWISE_BLOCK);

  sum(values: Float64Array, width: number, first: number, last: number): void {
    if (first < 0) {
      this.total = 0;
      this.rows = 0;
      this.columns = 0;
      return;
    }
    this.block(values, width, 0, values.length, first, last, 0);
    this.total = this.depthResults[0] as number;
    this.rows = this.depthResults[1] as number;
    this.columns = this.depthResults[2] as number;
  }

  private block(
    values: Float64Array,
    width: number,
    start: number,
    n: number,
    first: number,
    last: number,
    depth: number,
  ): void {
    const out = this.depthResults;
    const slot = depth * 3;
    if (start > last || start + n - 1 < first) {
      out[slot] = 0;
      out[slot + 1] = 0;
      out[slot + 2] = 0;
      return;
    }
    if (n > PAIRWISE_BLOCK) {
      let half = Math.floor(n / 2);
      half -= half % 8;
      this.block(values, width, start, half, first, last, depth + 1);
      const t = out[slot + 3] as number;
      const r = out[slot + 4] as number;
      const c = out[slot + 5] as number;
      this.block(values, width, start + half, n - half, first, last, depth + 1);
      out[slot] = t + (out[slot + 3] as number);
      out[slot + 1] = r + (out[slot + 4] as number);
      out[slot + 2] = c + (out[slot + 5] as number);
      return;
    }
    const rowOf = this.rowOf;
    const columnOf = this.columnOf;
    let row = Math.floor(start / width);
    let column = start - row * width;
    for (let j = 0; j < n; j++) {
      rowOf[j] = row;
      columnOf[j] = column;
      if (++column === width) {
        column = 0;
        row++;
      }
    }
    if (n < 8) {
      let t = 0;
      let r = 0;
      let c = 0;
      for (let j = 0; j < n; j++) {
        const v = values[start + j] as number;
        t += v;
        r += v * (rowOf[j] as number);
        c += v * (columnOf[j] as number);
      }
      out[slot] = t;
      out[slot + 1] = r;
      out[slot + 2] = c;
      return;
    }
    const t8 = this.accumulators;
    for (let m = 0; m < 8; m++) {
      const v = values[start + m] as number;
      t8[m] = v;
      t8[8 + m] = v * (rowOf[m] as number);
      t8[16 + m] = v * (columnOf[m] as number);
    }
    let j = 8;
    for (; j < n - (n % 8); j += 8) {
      for (let m = 0; m < 8; m++) {
        const v = values[start + j + m] as number;
        t8[m] = (t8[m] as number) + v;
        t8[8 + m] = (t8[8 + m] as number) + v * (rowOf[j + m] as number);
        t8[16 + m] = (t8[16 + m] as number) + v * (columnOf[j + m] as number);
      }
    }
    let t = combine8(t8, 0);
    let r = combine8(t8, 8);
    let c = combine8(t8, 16);
    for (; j < n; j++) {
      const v = values[start + j] as number;
      t += v;
      r += v * (rowOf[j] as number);
      c += v * (columnOf[j] as number);
    }
    out[slot] = t;
    out[slot + 1] = r;
    out[slot + 2] = c;
  }

  private readonly accumulators = new Float64Array(24);
}

function combine8(r: Float64Array, at: number): number {
  return (
    (r[at] as number) +
    (r[at + 1] as number) +
    ((r[at + 2] as number) + (r[at + 3] as number)) +
    ((r[at + 4] as number) + (r[at + 5] as number) + ((r[at + 6] as number) + (r[at + 7] as number)))
  );
}
