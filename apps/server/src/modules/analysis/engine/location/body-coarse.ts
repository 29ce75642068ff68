/**
 * The coarse stage of `body_core`: the frame's difference from the reference in blocks of f×f pixels, a
 * threshold from the frame's own noise, and the changed regions of each polarity. Working on block means makes
 * a frame's search cost a sixteenth of its pixels (f = 4 at 640×480) and averages noise down by f; the body's
 * exact shape is then found at full resolution around the chosen region only (body-core.ts).
 */

/** Block side for a picture: the coarse grid keeps at least ~60 blocks on its short side. */
export function blockSide(width: number, height: number): number {
  const short = Math.min(width, height);
  return short >= 240 ? 4 : short >= 120 ? 2 : 1;
}

/** Histogram bins of a quarter grey level over ±256 levels. */
const BINS = 2048;
const BIN_SCALE = 4;
const HALF = BINS >> 1;

export class CoarseGrid {
  readonly f: number;
  readonly cw: number;
  readonly ch: number;
  /** The block mean of the reference. */
  private readonly refBlock: Float32Array;
  /** 1 where a block has no excluded pixel. */
  readonly valid: Uint8Array;
  /** The block's difference from the reference (the frame's median difference, `median`, is lighting drift). */
  readonly z: Float32Array;
  /** Component of each block (0: unchanged); components are numbered from 1. */
  readonly label: Int32Array;
  /** Per component (index = label): sign (±1), block count, sums for the centroid, bounding box, |z| sum. */
  readonly sign: Int8Array;
  readonly area: Int32Array;
  readonly sumX: Float64Array;
  readonly sumY: Float64Array;
  readonly sumZ: Float64Array;
  readonly minX: Int32Array;
  readonly maxX: Int32Array;
  readonly minY: Int32Array;
  readonly maxY: Int32Array;
  /** How many of a component's blocks touch the picture's edge or an excluded block (an arm reaching in: many;
   *  a tether: one or two). */
  readonly edge: Int32Array;
  count = 0;
  /** The frame's median difference and the change threshold, both in grey levels. */
  median = 0;
  threshold = 0;
  private readonly histogram = new Int32Array(BINS);
  private readonly stack: Int32Array;
  private readonly aligned: Uint8Array;
  private readonly words: Uint32Array | null;
  private readonly sums: Float32Array;
  private readonly scale: number;
  private frameView: Uint32Array | null = null;
  private frameViewOffset = -1;

  constructor(
    readonly width: number,
    readonly height: number,
    reference: Float32Array,
    readonly exclusionMask: Uint8Array | null,
  ) {
    const f = blockSide(width, height);
    this.f = f;
    this.cw = Math.max(1, Math.floor(width / f));
    this.ch = Math.max(1, Math.floor(height / f));
    const cells = this.cw * this.ch;
    this.refBlock = new Float32Array(cells);
    this.valid = new Uint8Array(cells).fill(1);
    this.z = new Float32Array(cells);
    this.label = new Int32Array(cells);
    this.sums = new Float32Array(cells);
    this.scale = 1 / (f * f);
    // A checkerboard has the most components: half the blocks, plus label 0.
    const most = (cells >> 1) + 2;
    this.sign = new Int8Array(most);
    this.area = new Int32Array(most);
    this.sumX = new Float64Array(most);
    this.sumY = new Float64Array(most);
    this.sumZ = new Float64Array(most);
    this.minX = new Int32Array(most);
    this.maxX = new Int32Array(most);
    this.minY = new Int32Array(most);
    this.maxY = new Int32Array(most);
    this.edge = new Int32Array(most);
    this.stack = new Int32Array(cells);
    const fast = f === 4 && width % 4 === 0;
    this.aligned = new Uint8Array(fast ? width * height : 0);
    this.words = fast ? new Uint32Array(this.aligned.buffer) : null;
    for (let y = 0; y < this.ch * f; y++) {
      for (let x = 0; x < this.cw * f; x++) {
        const cell = Math.floor(y / f) * this.cw + Math.floor(x / f);
        this.refBlock[cell] = (this.refBlock[cell] ?? 0) + (reference[y * width + x] ?? 0);
        if (exclusionMask?.[y * width + x]) this.valid[cell] = 0;
      }
    }
    for (let c = 0; c < cells; c++) this.refBlock[c] = (this.refBlock[c] ?? 0) / (f * f);
  }

  /** Bins a block's difference into the histogram, and returns it. */
  private bin(c: number, sum: number): number {
    if (!this.valid[c]) return 0;
    const d = sum * this.scale - (this.refBlock[c] as number);
    let b = Math.floor(d * BIN_SCALE + 0.5) + HALF;
    b = b < 0 ? 0 : b >= BINS ? BINS - 1 : b;
    this.histogram[b] = (this.histogram[b] as number) + 1;
    return d;
  }

  /** Each block's difference from the reference into `z`, and their histogram; returns how many were binned. */
  private differences(frame: Uint8Array) {
    const { f, cw, ch, width, z, histogram } = this;
    histogram.fill(0);
    if (this.words) {
      // Four pixels a 32-bit word: two 16-bit lanes add pairs of bytes (4 rows × 2 × 255 fits a lane).
      let words = this.words;
      if (frame.byteOffset % 4 === 0) {
        // The caller reuses its frame buffer: one view of it, made again only if the buffer changes.
        if (this.frameView?.buffer !== frame.buffer || this.frameViewOffset !== frame.byteOffset) {
          this.frameView = new Uint32Array(frame.buffer, frame.byteOffset, (width * this.height) >> 2);
          this.frameViewOffset = frame.byteOffset;
        }
        words = this.frameView;
      } else this.aligned.set(frame);
      const rowWords = width >> 2;
      for (let cy = 0; cy < ch; cy++) {
        const row0 = cy * 4 * rowWords;
        for (let cx = 0; cx < cw; cx++) {
          const i = row0 + cx;
          const w0 = words[i] as number;
          const w1 = words[i + rowWords] as number;
          const w2 = words[i + 2 * rowWords] as number;
          const w3 = words[i + 3 * rowWords] as number;
          const lanes =
            (w0 & 0xff00ff) +
            ((w0 >>> 8) & 0xff00ff) +
            (w1 & 0xff00ff) +
            ((w1 >>> 8) & 0xff00ff) +
            (w2 & 0xff00ff) +
            ((w2 >>> 8) & 0xff00ff) +
            (w3 & 0xff00ff) +
            ((w3 >>> 8) & 0xff00ff);
          const c = cy * cw + cx;
          z[c] = this.bin(c, (lanes & 0xffff) + (lanes >>> 16));
        }
      }
    } else {
      const { sums } = this;
      sums.fill(0);
      for (let y = 0; y < ch * f; y++) {
        const cellRow = Math.floor(y / f) * cw;
        const row = y * width;
        for (let x = 0; x < cw * f; x++) {
          const cell = cellRow + Math.floor(x / f);
          sums[cell] = (sums[cell] as number) + (frame[row + x] as number);
        }
      }
      for (let c = 0; c < z.length; c++) z[c] = this.bin(c, sums[c] as number);
    }
  }

  /**
   * Differences, threshold and changed regions of one frame. The threshold is `noiseK` robust SDs of the block
   * differences (1.4826 × their median absolute deviation), at least `minContrast` grey levels.
   */
  analyse(frame: Uint8Array, noiseK: number, minContrast: number) {
    this.differences(frame);
    const { histogram } = this;
    let total = 0;
    for (let b = 0; b < BINS; b++) total += histogram[b] as number;
    // The median's bin, then the median absolute deviation: bins taken symmetrically outward from it.
    let middle = 0;
    for (let seen = 0; middle < BINS; middle++) {
      seen += histogram[middle] as number;
      if (seen >= total / 2) break;
    }
    let spread = 0;
    for (let seen = histogram[middle] as number; seen < total / 2 && spread < BINS; ) {
      spread++;
      seen += (histogram[middle - spread] ?? 0) + (histogram[middle + spread] ?? 0);
    }
    this.median = total > 0 ? (middle - HALF) / BIN_SCALE : 0;
    this.threshold = Math.max((noiseK * 1.4826 * spread) / BIN_SCALE, minContrast);
    this.label.fill(0);
    this.count = 0;
    this.components();
  }

  /** 8-connected regions of blocks changed the same way (darker or lighter). */
  private components() {
    const { z, label, stack, cw, ch, threshold, median, valid } = this;
    const cells = z.length;
    for (let seed = 0; seed < cells; seed++) {
      const zs = (z[seed] as number) - median;
      if (label[seed] !== 0 || (zs <= threshold && zs >= -threshold) || !valid[seed]) continue;
      const sign = zs > 0 ? 1 : -1;
      const id = ++this.count;
      this.sign[id] = sign;
      let area = 0;
      let sumX = 0;
      let sumY = 0;
      let sumZ = 0;
      let minX = cw;
      let maxX = -1;
      let minY = ch;
      let maxY = -1;
      let edge = 0;
      let top = 0;
      stack[top++] = seed;
      label[seed] = id;
      while (top > 0) {
        const c = stack[--top] as number;
        const cx = c % cw;
        const cy = (c - cx) / cw;
        area++;
        sumX += cx;
        sumY += cy;
        sumZ += ((z[c] as number) - median) * sign;
        if (cx < minX) minX = cx;
        if (cx > maxX) maxX = cx;
        if (cy < minY) minY = cy;
        if (cy > maxY) maxY = cy;
        let atEdge = 0;
        for (let dy = -1; dy <= 1; dy++) {
          const ny = cy + dy;
          if (ny < 0 || ny >= ch) {
            atEdge = 1;
            continue;
          }
          for (let dx = -1; dx <= 1; dx++) {
            const nx = cx + dx;
            if (nx < 0 || nx >= cw) {
              atEdge = 1;
              continue;
            }
            const n = ny * cw + nx;
            if (!valid[n]) atEdge = 1;
            if (label[n] !== 0 || !valid[n]) continue;
            const zn = ((z[n] as number) - median) * sign;
            if (zn > threshold) {
              label[n] = id;
              stack[top++] = n;
            }
          }
        }
        edge += atEdge;
      }
      this.area[id] = area;
      this.sumX[id] = sumX;
      this.sumY[id] = sumY;
      this.sumZ[id] = sumZ;
      this.minX[id] = minX;
      this.maxX[id] = maxX;
      this.minY[id] = minY;
      this.maxY[id] = maxY;
      this.edge[id] = edge;
    }
  }

  /** A component's centroid in video pixels. */
  centroidX(id: number): number {
    return ((this.sumX[id] as number) / (this.area[id] as number) + 0.5) * this.f;
  }

  centroidY(id: number): number {
    return ((this.sumY[id] as number) / (this.area[id] as number) + 0.5) * this.f;
  }

  /**
   * The centroid (video pixels) of a component's blocks whose 8 neighbours all belong to it: a tether or tail one
   * or two blocks wide has none, so it does not pull this centre off the body. Into `interiorX`/`interiorY`; the
   * plain centroid when no block is interior.
   */
  interiorCentre(id: number) {
    const { cw, label } = this;
    let sx = 0;
    let sy = 0;
    let n = 0;
    const x0 = Math.max(1, this.minX[id] as number);
    const x1 = Math.min(cw - 2, this.maxX[id] as number);
    const y0 = Math.max(1, this.minY[id] as number);
    const y1 = Math.min(this.ch - 2, this.maxY[id] as number);
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const c = cy * cw + cx;
        if (
          label[c] === id &&
          label[c - 1] === id &&
          label[c + 1] === id &&
          label[c - cw] === id &&
          label[c + cw] === id &&
          label[c - cw - 1] === id &&
          label[c - cw + 1] === id &&
          label[c + cw - 1] === id &&
          label[c + cw + 1] === id
        ) {
          sx += cx;
          sy += cy;
          n++;
        }
      }
    }
    this.interiorX = n ? (sx / n + 0.5) * this.f : this.centroidX(id);
    this.interiorY = n ? (sy / n + 0.5) * this.f : this.centroidY(id);
  }

  interiorX = 0;
  interiorY = 0;

  /** Distance in video pixels from (x, y) to a component's bounding box (0 inside it). */
  boxDistance(id: number, x: number, y: number): number {
    const f = this.f;
    const dx = Math.max((this.minX[id] as number) * f - x, 0, x - ((this.maxX[id] as number) + 1) * f);
    const dy = Math.max((this.minY[id] as number) * f - y, 0, y - ((this.maxY[id] as number) + 1) * f);
    return Math.hypot(dx, dy);
  }
}
