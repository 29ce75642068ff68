/**
 * The fine stage of `body_core`: inside a box around the chosen region, at full resolution, the animal's mask
 * (changed by more than half its own contrast, so its edge sits where the picture is halfway between animal and
 * arena, whatever the blur), its holes filled, and the distance of every animal pixel to the arena (chamfer
 * 3-4). Tails, tethers and wires are a few pixels thick, so they never reach the body's depth: the centroid of
 * the pixels at least `core_fraction` of the deepest is the body's centre, however long the tail.
 */
import type { CoarseGrid } from './body-coarse.js';
import type { Point } from './tracker.js';

export interface CoreBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Chamfer weights: 3 along an axis, 4 on a diagonal (distance ≈ value / 3 pixels). */
const AXIS = 3;
const DIAGONAL = 4;
const BACKGROUND = 2;
/** The spine runs through the pixels at least this fraction of the deepest: tails and tethers never reach it. */
const SPINE_FRACTION = 0.3;

export class BodyCore {
  private readonly value: Float32Array;
  private readonly mask: Uint8Array;
  private readonly distance: Uint16Array;
  private readonly stack: Int32Array;
  private readonly allowed: Uint8Array;
  private readonly columnCell: Int32Array;
  /** Every step-th pixel of every step-th row: 2 at 640×480, where the body is ~40 px wide and ~100 long. */
  private readonly step: number;
  private top = 0;
  /** The largest chamfer distance of the last frame (3 per box sample), and where it is. */
  deepest = 0;
  private deepestAt = 0;
  private bendX = 0;
  private bendY = 0;
  private readonly steps: Int32Array;
  private readonly parent: Int32Array;
  private readonly queue: Int32Array;
  /** Sums (x, y, count) of three cross-sections of the body. */
  private readonly slabs = new Float64Array(9);

  constructor(
    private readonly width: number,
    height: number,
    private readonly reference: Float32Array,
    private readonly exclusionMask: Uint8Array | null,
    private readonly grid: CoarseGrid,
  ) {
    const size = width * height;
    this.value = new Float32Array(size);
    this.mask = new Uint8Array(size);
    this.distance = new Uint16Array(size);
    this.stack = new Int32Array(size);
    this.allowed = new Uint8Array(grid.cw * grid.ch);
    this.columnCell = new Int32Array(width);
    this.steps = new Int32Array(size);
    this.parent = new Int32Array(size);
    this.queue = new Int32Array(size);

    this.step = grid.f >= 4 ? 2 : 1;
  }

  /** Marks the blocks of component `id` and their 8 neighbours, within the box's blocks. */
  private allow(id: number, box: CoreBox) {
    const { grid, allowed } = this;
    const { f, cw, ch, label } = grid;
    const cx0 = Math.max(0, Math.floor(box.x0 / f) - 1);
    const cx1 = Math.min(cw - 1, Math.floor((box.x1 - 1) / f) + 1);
    const cy0 = Math.max(0, Math.floor(box.y0 / f) - 1);
    const cy1 = Math.min(ch - 1, Math.floor((box.y1 - 1) / f) + 1);
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        let near = 0;
        for (let dy = -1; dy <= 1 && !near; dy++) {
          const ny = cy + dy;
          if (ny < 0 || ny >= ch) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const nx = cx + dx;
            if (nx >= 0 && nx < cw && label[ny * cw + nx] === id) {
              near = 1;
              break;
            }
          }
        }
        allowed[cy * cw + cx] = near;
      }
    }
    return { cx1, cy1 };
  }

  /**
   * The body centre of component `id` of `grid` inside `box` (video pixels, end exclusive), or null when the
   * box holds no changed pixel. `sign` is the animal's polarity (−1 darker than the arena, +1 lighter).
   */
  centre(
    frame: Uint8Array,
    id: number,
    box: CoreBox,
    sign: number,
    coreFraction: number,
    merged: { near: Point; depth: number } | null,
  ): Point | null {
    const { width, reference, exclusionMask, value, mask, distance, allowed, grid } = this;
    const { x0, y0, x1, y1 } = box;
    const step = this.step;
    const rw = Math.ceil((x1 - x0) / step);
    const rh = Math.ceil((y1 - y0) / step);
    if (rw <= 0 || rh <= 0) return null;
    const { cx1, cy1 } = this.allow(id, box);
    const { f, cw, median, threshold } = grid;
    // Each column's block, once: the per-pixel loop below only adds.
    const { columnCell } = this;
    for (let x = 0; x < rw; x++) columnCell[x] = Math.min(Math.floor((x * step + x0) / f), cx1);
    // The animal's own contrast: the mean difference of its clearly changed pixels.
    let sum = 0;
    let count = 0;
    for (let y = 0; y < rh; y++) {
      const cellRow = Math.min(Math.floor((y * step + y0) / f), cy1) * cw;
      const row = (y * step + y0) * width + x0;
      const out = y * rw;
      for (let x = 0; x < rw; x++) {
        const p = row + x * step;
        let v = -1;
        if (allowed[cellRow + (columnCell[x] as number)] && (exclusionMask === null || !exclusionMask[p])) {
          v = sign * ((frame[p] as number) - (reference[p] as number) - median);
          if (v > threshold) {
            sum += v;
            count++;
          }
        }
        value[out + x] = v;
      }
    }
    if (count === 0) return null;
    const cut = Math.max(sum / count / 2, threshold);
    const size = rw * rh;
    for (let i = 0; i < size; i++) mask[i] = (value[i] as number) > cut ? 1 : 0;
    this.fillHoles(rw, rh);
    const deepest = this.chamfer(rw, rh);
    this.deepest = deepest;
    if (merged) {
      // Touching something larger (a hand): its inside is deeper than the body, so the body's core is the part,
      // at the animal's usual depth, nearest to where the animal was.
      return this.nearestCore(rw, rh, box, Math.max(AXIS, Math.ceil(coreFraction * merged.depth)), merged.near);
    }
    const floor = Math.max(1, Math.ceil(coreFraction * deepest));
    let sx = 0;
    let sy = 0;
    let n = 0;
    for (let y = 0; y < rh; y++) {
      for (let x = 0; x < rw; x++) {
        if ((distance[y * rw + x] as number) >= floor) {
          sx += x;
          sy += y;
          n++;
        }
      }
    }
    if (n === 0) return null;
    this.bend(rw, rh, Math.ceil(SPINE_FRACTION * deepest));
    return { x: x0 + (sx / n + this.bendX) * step + 0.5, y: y0 + (sy / n + this.bendY) * step + 0.5 };
  }

  /**
   * How far a bent body's centre lies off its core, into `bendX`/`bendY` (box samples): the body centre is the
   * midpoint of the head and the tail base, a chord of the spine, so on a bent animal it lies inside the bend,
   * off the core. The body without its thin parts ({distance ≥ floor}) has two ends (two breadth-first searches
   * from the deepest pixel); cut across the line between them, its cross-sections' centres at 10 %, 50 % and 90 %
   * of the way trace the spine, and the shift is the midpoint of the outer two minus the middle one (zero for a
   * straight body).
   */
  private bend(rw: number, rh: number, floor: number) {
    this.bendX = 0;
    this.bendY = 0;
    const end = this.farthest(rw, rh, this.deepestAt, floor);
    const other = this.farthest(rw, rh, end, floor);
    const ex = end % rw;
    const ey = (end - ex) / rw;
    const cx = (other % rw) - ex;
    const cy = (other - (other % rw)) / rw - ey;
    const length2 = cx * cx + cy * cy;
    if (length2 < 16) return;
    const { distance, slabs } = this;
    slabs.fill(0);
    for (let y = 0; y < rh; y++) {
      for (let x = 0; x < rw; x++) {
        if ((distance[y * rw + x] as number) < floor) continue;
        const t = ((x - ex) * cx + (y - ey) * cy) / length2;
        const slab = t >= 0.05 && t < 0.15 ? 0 : t >= 0.45 && t < 0.55 ? 3 : t >= 0.85 && t < 0.95 ? 6 : -1;
        if (slab < 0) continue;
        slabs[slab] = (slabs[slab] as number) + x;
        slabs[slab + 1] = (slabs[slab + 1] as number) + y;
        slabs[slab + 2] = (slabs[slab + 2] as number) + 1;
      }
    }
    const an = slabs[2] as number;
    const bn = slabs[5] as number;
    const dn = slabs[8] as number;
    if (!an || !bn || !dn) return;
    this.bendX = ((slabs[0] as number) / an + (slabs[6] as number) / dn) / 2 - (slabs[3] as number) / bn;
    this.bendY = ((slabs[1] as number) / an + (slabs[7] as number) / dn) / 2 - (slabs[4] as number) / bn;
  }

  /** The last pixel a breadth-first search (8-connected, within distance ≥ floor) from `from` reaches. */
  private farthest(rw: number, rh: number, from: number, floor: number): number {
    const { distance, steps, parent, queue } = this;
    steps.fill(-1, 0, rw * rh);
    let head = 0;
    let tail = 0;
    queue[tail++] = from;
    steps[from] = 0;
    parent[from] = -1;
    let last = from;
    while (head < tail) {
      const i = queue[head++] as number;
      last = i;
      const x = i % rw;
      const y = (i - x) / rw;
      const next = (steps[i] as number) + 1;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= rh) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= rw) continue;
          const j = ny * rw + nx;
          if ((steps[j] as number) >= 0 || (distance[j] as number) < floor) continue;
          steps[j] = next;
          parent[j] = i;
          queue[tail++] = j;
        }
      }
    }
    return last;
  }

  /** The centroid of the 8-connected part of {distance ≥ floor} whose centroid is nearest `near`. */
  private nearestCore(rw: number, rh: number, box: CoreBox, floor: number, near: Point): Point | null {
    const { distance, mask, stack } = this;
    // mask: 3 marks core pixels already taken into a part.
    const TAKEN = 3;
    let best: Point | null = null;
    let bestDistance = Number.POSITIVE_INFINITY;
    const size = rw * rh;
    for (let seed = 0; seed < size; seed++) {
      if ((distance[seed] as number) < floor || mask[seed] === TAKEN) continue;
      let sx = 0;
      let sy = 0;
      let n = 0;
      let top = 0;
      stack[top++] = seed;
      mask[seed] = TAKEN;
      while (top > 0) {
        const i = stack[--top] as number;
        const x = i % rw;
        const y = (i - x) / rw;
        sx += x;
        sy += y;
        n++;
        for (let dy = -1; dy <= 1; dy++) {
          const ny = y + dy;
          if (ny < 0 || ny >= rh) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const nx = x + dx;
            if (nx < 0 || nx >= rw) continue;
            const j = ny * rw + nx;
            if ((distance[j] as number) >= floor && mask[j] !== TAKEN) {
              mask[j] = TAKEN;
              stack[top++] = j;
            }
          }
        }
      }
      const cx = box.x0 + (sx / n) * this.step + 0.5;
      const cy = box.y0 + (sy / n) * this.step + 0.5;
      const gap = Math.hypot(cx - near.x, cy - near.y);
      if (gap < bestDistance) {
        bestDistance = gap;
        best = { x: cx, y: cy };
      }
    }
    return best;
  }

  /** Marks the arena reachable from the box's edge (4-connected) as BACKGROUND; whatever else is left is animal. */
  private fillHoles(rw: number, rh: number) {
    const { mask, stack } = this;
    this.top = 0;
    for (let x = 0; x < rw; x++) {
      this.seed(x);
      this.seed((rh - 1) * rw + x);
    }
    for (let y = 0; y < rh; y++) {
      this.seed(y * rw);
      this.seed(y * rw + rw - 1);
    }
    while (this.top > 0) {
      const i = stack[--this.top] as number;
      const x = i % rw;
      if (x > 0 && mask[i - 1] === 0) this.seed(i - 1);
      if (x < rw - 1 && mask[i + 1] === 0) this.seed(i + 1);
      if (i >= rw && mask[i - rw] === 0) this.seed(i - rw);
      if (i < (rh - 1) * rw && mask[i + rw] === 0) this.seed(i + rw);
    }
  }

  private seed(i: number) {
    if (this.mask[i] === 0) {
      this.mask[i] = BACKGROUND;
      this.stack[this.top++] = i;
    }
  }

  /** Chamfer 3-4 distance to the arena (outside the box counts as arena); returns the largest. */
  private chamfer(rw: number, rh: number): number {
    const { mask, distance } = this;
    // Forward pass (left, up-left, up, up-right); the box's outside is arena (0).
    for (let y = 0; y < rh; y++) {
      const row = y * rw;
      for (let x = 0; x < rw; x++) {
        const i = row + x;
        if (mask[i] === BACKGROUND) {
          distance[i] = 0;
          continue;
        }
        if (y === 0 || x === 0 || x === rw - 1) {
          distance[i] = AXIS;
          continue;
        }
        let d = (distance[i - 1] as number) + AXIS;
        const up = (distance[i - rw] as number) + AXIS;
        if (up < d) d = up;
        const upLeft = (distance[i - rw - 1] as number) + DIAGONAL;
        if (upLeft < d) d = upLeft;
        const upRight = (distance[i - rw + 1] as number) + DIAGONAL;
        if (upRight < d) d = upRight;
        distance[i] = d;
      }
    }
    let deepest = 0;
    for (let y = rh - 1; y >= 0; y--) {
      const row = y * rw;
      for (let x = rw - 1; x >= 0; x--) {
        const i = row + x;
        let d = distance[i] as number;
        if (d === 0) continue;
        if (y === rh - 1 || x === 0 || x === rw - 1) d = AXIS;
        else {
          const right = (distance[i + 1] as number) + AXIS;
          if (right < d) d = right;
          const down = (distance[i + rw] as number) + AXIS;
          if (down < d) d = down;
          const downRight = (distance[i + rw + 1] as number) + DIAGONAL;
          if (downRight < d) d = downRight;
          const downLeft = (distance[i + rw - 1] as number) + DIAGONAL;
          if (downLeft < d) d = downLeft;
        }
        distance[i] = d;
        if (d > deepest) {
          deepest = d;
          this.deepestAt = i;
        }
      }
    }
    return deepest;
  }
}
