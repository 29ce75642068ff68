/**
 * `body_core`, the default location tracker (issue 22, ADR 024): the centre of the animal's body, not of the
 * darkest change. Per frame:
 *  1. the difference from the reference in 4×4 blocks, minus its median (lighting drift), thresholded at
 *     `noise_k` robust SDs of the frame's own noise (MAD), never under `min_contrast`; changed blocks form
 *     regions, darker and lighter ones apart (body-coarse.ts);
 *  2. the animal's region: of its polarity (fixed by `polarity`, or by the first animal found), the nearest to the
 *     previous position among regions of a similar size within `reach` body lengths — so a hand or object
 *     entering is passed over — else, after a cut or dropped frames, the region of the most similar size anywhere;
 *  3. at full resolution around that region, the body's core: the centroid of the pixels deepest inside the animal
 *     (body-core.ts), which tails, tethers and wires never reach.
 * Everything is allocated once per tracker; a frame allocates nothing.
 */
import { CoarseGrid } from './body-coarse.js';
import { BodyCore, type CoreBox } from './body-core.js';
import { BODY_DEFAULTS, type BodyParameters } from './body-parameters.js';
import type { FrameTracker, Point, TrackerHandoff } from './tracker.js';

/** What `body_core` carries between frames (and pieces). */
export interface BodyHandoff extends TrackerHandoff {
  /** −1: the animal is darker than the arena; 1: lighter; 0: not known yet. */
  polarity: number;
  /** The animal's usual area in pixels (a running mean), null before it is first found. */
  area: number | null;
  /** Its usual depth, the largest chamfer distance inside it (3 per pixel; a running mean), null before. */
  depth: number | null;
  /** Its usual contrast with the reference in grey levels (a running mean), null before. */
  contrast: number | null;
}

export interface BodyTrackerOptions {
  parameters: Partial<BodyParameters>;
  /** Per-pixel reference (the usual arena), width × height. */
  reference: Float32Array;
  width: number;
  height: number;
  /** 1 = ignore the pixel; null: nothing excluded. */
  exclusionMask: Uint8Array | null;
  handoff: TrackerHandoff | null;
}

/** From one frame to the next the animal's area stays within this factor of its usual area; a larger region
 *  at its place is the animal merged with something (a hand), a smaller one a part of it. */
const NEAR_FACTOR = 1.8;
/** After a jump, a region anywhere is taken for the animal only within this factor of its usual area. */
const JUMP_FACTOR = 3;
/** A region touching the picture's edge along this many blocks reaches in from outside (a tether touches along 1–2). */
const EDGE_BLOCKS = 4;
/** Half the side of the full-resolution box around the body, in body lengths. */
const BOX_REACH = 0.65;
/** Weight of a new frame's area in the running mean. */
const AREA_RATE = 0.1;

/** Body length (px) of an animal of `area` px: a mouse's outline is about 2.5 times longer than wide. */
export function bodyLength(area: number): number {
  return 2 * Math.sqrt(area);
}

export function createBodyTracker(options: BodyTrackerOptions): FrameTracker {
  const { width, height, reference, exclusionMask } = options;
  const parameters = { ...BODY_DEFAULTS, ...options.parameters };
  if (reference.length !== width * height) throw new Error('the reference must have width × height values');
  if (exclusionMask && exclusionMask.length !== width * height) {
    throw new Error('the exclusion mask must have width × height values');
  }
  const grid = new CoarseGrid(width, height, reference, exclusionMask);
  const core = new BodyCore(width, height, reference, exclusionMask, grid);
  const fixedSign = parameters.polarity === 'dark' ? -1 : parameters.polarity === 'light' ? 1 : 0;
  const start = options.handoff as Partial<BodyHandoff> | null;
  let previous: Point | null = start?.previous ? { x: start.previous.x, y: start.previous.y } : null;
  let polarity = fixedSign || (typeof start?.polarity === 'number' ? Math.sign(start.polarity) : 0);
  let usualArea = typeof start?.area === 'number' && start.area > 0 ? start.area : null;
  let usualDepth = typeof start?.depth === 'number' && start.depth > 0 ? start.depth : null;
  let usualContrast = typeof start?.contrast === 'number' && start.contrast > 0 ? start.contrast : null;
  let merged = false;
  const cellArea = grid.f * grid.f;
  const minCells = Math.max(1, Math.ceil(parameters.min_area / cellArea));
  const box: CoreBox = { x0: 0, y0: 0, x1: 0, y1: 0 };

  /** How unlike the usual area a region is (1: the same size). */
  const sizeRatio = (id: number) => {
    if (usualArea === null) return 1;
    const area = (grid.area[id] as number) * cellArea;
    return area > usualArea ? area / usualArea : usualArea / area;
  };
  /** How unlike the usual contrast a region is (1: the same). */
  const contrastRatio = (id: number) => {
    if (usualContrast === null) return 1;
    const contrast = (grid.sumZ[id] as number) / (grid.area[id] as number);
    return contrast > usualContrast ? contrast / usualContrast : usualContrast / contrast;
  };

  /** Whether a region reaches in from the picture's edge or an exclusion over a width of blocks (an arm does). */
  const reachesIn = (id: number) => (grid.edge[id] as number) >= EDGE_BLOCKS;

  /**
   * The animal's region, and whether it is merged with something larger (then only its part near `previous`
   * counts): the nearest region of about its size within reach; else a larger one at its place; else, after a
   * jump, the region most like it anywhere (size, contrast, and not reaching in from the picture's edge).
   */
  function choose(): number {
    merged = false;
    let nearest = 0;
    let nearestDistance = Number.POSITIVE_INFINITY;
    let touching = 0;
    let alike = 0;
    let alikeScore = Number.POSITIVE_INFINITY;
    let largest = 0;
    let largestInside = 0;
    const reach = usualArea === null ? 0 : parameters.reach * bodyLength(usualArea);
    for (let id = 1; id <= grid.count; id++) {
      if ((grid.area[id] as number) < minCells) continue;
      if (polarity !== 0 && grid.sign[id] !== polarity) continue;
      if (largest === 0 || (grid.area[id] as number) > (grid.area[largest] as number)) largest = id;
      const larger = largestInside === 0 || (grid.area[id] as number) > (grid.area[largestInside] as number);
      if (!reachesIn(id) && larger) largestInside = id;
      const ratio = sizeRatio(id);
      if (ratio < JUMP_FACTOR) {
        const score = Math.log(ratio) + Math.log(contrastRatio(id)) + (reachesIn(id) ? 1 : 0);
        if (score < alikeScore) {
          alike = id;
          alikeScore = score;
        }
      }
      if (!previous) continue;
      const gap = grid.boxDistance(id, previous.x, previous.y);
      if (gap > reach) continue;
      if (ratio >= NEAR_FACTOR) {
        if (gap === 0 && (grid.area[id] as number) * cellArea > (usualArea as number)) touching = id;
        continue;
      }
      const distance = Math.hypot(grid.centroidX(id) - previous.x, grid.centroidY(id) - previous.y);
      if (distance < nearestDistance) {
        nearest = id;
        nearestDistance = distance;
      }
    }
    // Before the animal is known: the largest region, or one nearly as large that does not reach in from the edge.
    if (usualArea === null) {
      const inside = largestInside && (grid.area[largestInside] as number) * 2 >= (grid.area[largest] as number);
      return inside ? largestInside : largest;
    }
    if (nearest) return nearest;
    if (touching) {
      merged = true;
      return touching;
    }
    return alike;
  }

  function track(frame: Uint8Array): Point | null {
    grid.analyse(frame, parameters.noise_k, parameters.min_contrast);
    const id = choose();
    if (id === 0) {
      previous = null;
      return null;
    }
    const f = grid.f;
    const area = (grid.area[id] as number) * cellArea;
    // Blocks cover the picture but its last width % f columns and height % f rows: the edge blocks reach them.
    box.x0 = (grid.minX[id] as number) * f;
    box.y0 = (grid.minY[id] as number) * f;
    box.x1 = grid.maxX[id] === grid.cw - 1 ? width : ((grid.maxX[id] as number) + 1) * f;
    box.y1 = grid.maxY[id] === grid.ch - 1 ? height : ((grid.maxY[id] as number) + 1) * f;
    // A tether or a hand can stretch the region far: the body lies within its length of the region's thick part.
    grid.interiorCentre(id);
    const centreX = merged && previous ? previous.x : grid.interiorX;
    const centreY = merged && previous ? previous.y : grid.interiorY;
    const half = BOX_REACH * bodyLength(usualArea ?? area) + f;
    box.x0 = Math.max(0, box.x0 - f, Math.floor(centreX - half));
    box.y0 = Math.max(0, box.y0 - f, Math.floor(centreY - half));
    box.x1 = Math.min(width, box.x1 + f, Math.ceil(centreX + half));
    box.y1 = Math.min(height, box.y1 + f, Math.ceil(centreY + half));
    const sign = grid.sign[id] as number;
    const touching = merged && previous && usualDepth !== null ? { near: previous, depth: usualDepth } : null;
    const found = core.centre(frame, id, box, sign, parameters.core_fraction, touching);
    if (!found) {
      previous = null;
      return null;
    }
    if (!fixedSign) polarity = sign;
    if (!touching) {
      usualArea = usualArea === null ? area : usualArea + AREA_RATE * (area - usualArea);
      usualDepth = usualDepth === null ? core.deepest : usualDepth + AREA_RATE * (core.deepest - usualDepth);
      const contrast = (grid.sumZ[id] as number) / (grid.area[id] as number);
      usualContrast = usualContrast === null ? contrast : usualContrast + AREA_RATE * (contrast - usualContrast);
    }
    previous = found;
    return found;
  }

  return {
    track,
    handoff: (): BodyHandoff => ({
      previous: previous ? { x: previous.x, y: previous.y } : null,
      polarity,
      area: usualArea,
      depth: usualDepth,
      contrast: usualContrast,
    }),
  };
}
