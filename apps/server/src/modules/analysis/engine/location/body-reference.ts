/**
 * When the animal sits still through more than half of the reference's frames, the per-pixel median holds the
 * animal: where it sits the difference vanishes, and when it walks away its "ghost" — the arena seen where the
 * reference has the animal — shows as a region of the opposite polarity that never moves. `checkReference`
 * finds that case in the frames the reference was made from, and repairs the reference where the ghost is from
 * the frames in which the animal was elsewhere. The run should then use the repaired reference and say so, and
 * offer a reference from an empty-arena video or from frames the user picks (ADR 024).
 */
import { CoarseGrid } from './body-coarse.js';
import { BODY_DEFAULTS, type BodyParameters } from './body-parameters.js';
import { bodyLength } from './body-tracker.js';

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ReferenceCheck {
  /** Whether the reference holds the animal (it sat still through most of the reference's frames). */
  holdsAnimal: boolean;
  /** The animal's polarity, as seen where it moves: −1 darker than the arena, 1 lighter, 0 not seen. */
  polarity: number;
  /** Where the reference holds the animal, in video pixels (null when it does not). */
  region: Region | null;
  /** The reference with `region` taken from the frames in which the animal was elsewhere; null when it needs no
   *  repair or too few frames show the arena there (then ask for an empty-arena video or chosen frames). */
  repaired: Float32Array | null;
  /** How many frames showed the arena where the animal rests (the repair needs at least 3). */
  repairFrames: number;
}

export interface ReferenceCheckOptions {
  reference: Float32Array;
  /** The gray frames the reference was made from (or any frames of the video, width × height bytes each). */
  frames: readonly Uint8Array[];
  width: number;
  height: number;
  exclusionMask: Uint8Array | null;
  parameters?: Partial<BodyParameters>;
}

/** The largest changed region of one polarity in one frame (video pixels). */
interface Sighting {
  frame: number;
  area: number;
  x: number;
  y: number;
  box: Region;
}

/** A ghost shows in at least this share of the frames (and never fewer than 2). */
const MIN_SHARE = 0.1;
/** The fewest frames a repaired pixel is the median of. */
const MIN_REPAIR_FRAMES = 3;
/** A region counts as a sighting of the animal (or its ghost) from this share of the usual animal area. */
const ANIMAL_SHARE = 0.4;
/** A ghost's centre stays within this many body lengths of its usual place (median distance). */
const STILL_SPREAD = 0.15;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

function sightings(grid: CoarseGrid, frames: readonly Uint8Array[], parameters: BodyParameters) {
  const cellArea = grid.f * grid.f;
  const minCells = Math.max(1, Math.ceil(parameters.min_area / cellArea));
  const seen = new Map<number, Sighting[]>([
    [-1, []],
    [1, []],
  ]);
  frames.forEach((frame, index) => {
    grid.analyse(frame, parameters.noise_k, parameters.min_contrast);
    for (const sign of [-1, 1]) {
      let best = 0;
      for (let id = 1; id <= grid.count; id++) {
        if (grid.sign[id] !== sign || (grid.area[id] as number) < minCells) continue;
        if (best === 0 || (grid.area[id] as number) > (grid.area[best] as number)) best = id;
      }
      if (best === 0) continue;
      const f = grid.f;
      const x0 = (grid.minX[best] as number) * f;
      const y0 = (grid.minY[best] as number) * f;
      seen.get(sign)?.push({
        frame: index,
        area: (grid.area[best] as number) * cellArea,
        x: grid.centroidX(best),
        y: grid.centroidY(best),
        box: {
          x: x0,
          y: y0,
          width: ((grid.maxX[best] as number) + 1) * f - x0,
          height: ((grid.maxY[best] as number) + 1) * f - y0,
        },
      });
    }
  });
  // Only animal-sized regions count: a resting animal's twitching tail or ears leave small ones.
  const areas = [...(seen.get(-1) ?? []), ...(seen.get(1) ?? [])].map((s) => s.area).sort((a, b) => a - b);
  const typical = areas[Math.floor(0.9 * (areas.length - 1))] ?? 0;
  for (const [sign, list] of seen)
    seen.set(
      sign,
      list.filter((s) => s.area >= ANIMAL_SHARE * typical),
    );
  return seen;
}

/** The median centre of sightings and their median distance from it. */
function place(list: Sighting[]) {
  const x = median(list.map((s) => s.x));
  const y = median(list.map((s) => s.y));
  return { x, y, spread: median(list.map((s) => Math.hypot(s.x - x, s.y - y))), area: median(list.map((s) => s.area)) };
}

export function checkReference(options: ReferenceCheckOptions): ReferenceCheck {
  const parameters = { ...BODY_DEFAULTS, ...options.parameters };
  const { frames, width, height, reference, exclusionMask } = options;
  const grid = new CoarseGrid(width, height, reference, exclusionMask);
  const seen = sightings(grid, frames, parameters);
  const dark = seen.get(-1) ?? [];
  const light = seen.get(1) ?? [];
  const fixed = parameters.polarity === 'dark' ? -1 : parameters.polarity === 'light' ? 1 : 0;
  const weight = (list: Sighting[]) => list.reduce((sum, s) => sum + s.area, 0);
  const polarity = fixed || (dark.length + light.length === 0 ? 0 : weight(dark) >= weight(light) ? -1 : 1);
  const clean: ReferenceCheck = { holdsAnimal: false, polarity, region: null, repaired: null, repairFrames: 0 };
  const enough = Math.max(2, Math.ceil(MIN_SHARE * frames.length));
  if (dark.length < enough || light.length < enough) return clean;

  // The ghost is the polarity whose region never moves; the animal is the other one, and it moves. Without a fixed
  // polarity, either could be the ghost.
  const candidates = fixed ? [-fixed] : [-1, 1];
  for (const ghostSign of candidates) {
    const ghosts = ghostSign < 0 ? dark : light;
    const animals = ghostSign < 0 ? light : dark;
    const ghost = place(ghosts);
    const animal = place(animals);
    const length = bodyLength(ghost.area);
    const sizeRatio = ghost.area > animal.area ? ghost.area / animal.area : animal.area / ghost.area;
    if (ghost.spread > STILL_SPREAD * length || animal.spread <= 2 * ghost.spread || sizeRatio > 3) continue;
    // Where the ghost is missing, the animal sits on it (or is not seen at all).
    const ghostFrames = new Set(ghosts.map((s) => s.frame));
    const animalAt = new Map(animals.map((s) => [s.frame, s]));
    let missing = 0;
    let onIt = 0;
    for (let k = 0; k < frames.length; k++) {
      if (ghostFrames.has(k)) continue;
      missing++;
      const a = animalAt.get(k);
      if (!a || Math.hypot(a.x - ghost.x, a.y - ghost.y) < 0.5 * length) onIt++;
    }
    if (missing > 0 && onIt < 0.75 * missing) continue;
    const region = regionOf(ghosts, length, width, height);
    const repaired = repair(grid, parameters, ghosts, -ghostSign, frames, reference, region);
    return { holdsAnimal: true, polarity: -ghostSign, region, ...repaired };
  }
  return clean;
}

/** The box around the ghost's sightings at its usual place, with a margin. */
function regionOf(ghosts: Sighting[], length: number, width: number, height: number): Region {
  const centre = place(ghosts);
  const near = ghosts.filter((s) => Math.hypot(s.x - centre.x, s.y - centre.y) <= STILL_SPREAD * length * 2);
  const margin = Math.ceil(length / 8);
  const x0 = Math.max(0, Math.min(...near.map((s) => s.box.x)) - margin);
  const y0 = Math.max(0, Math.min(...near.map((s) => s.box.y)) - margin);
  const x1 = Math.min(width, Math.max(...near.map((s) => s.box.x + s.box.width)) + margin);
  const y1 = Math.min(height, Math.max(...near.map((s) => s.box.y + s.box.height)) + margin);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Per frame, 1 on the blocks the animal (regions of its sign and size) covers, dilated by one block. */
function coverage(grid: CoarseGrid, parameters: BodyParameters, frames: Uint8Array[], animalSign: number) {
  const { cw, ch, f, label } = grid;
  const minCells = Math.max(1, Math.ceil(parameters.min_area / (f * f)));
  return frames.map((frame) => {
    grid.analyse(frame, parameters.noise_k, parameters.min_contrast);
    const cells = new Uint8Array(cw * ch);
    for (let cy = 0; cy < ch; cy++) {
      for (let cx = 0; cx < cw; cx++) {
        const id = label[cy * cw + cx] as number;
        if (id === 0 || grid.sign[id] !== animalSign || (grid.area[id] as number) < minCells) continue;
        for (let y = Math.max(0, cy - 1); y <= Math.min(ch - 1, cy + 1); y++) {
          for (let x = Math.max(0, cx - 1); x <= Math.min(cw - 1, cx + 1); x++) cells[y * cw + x] = 1;
        }
      }
    }
    return cells;
  });
}

/**
 * `reference` with `region` replaced, pixel by pixel, by the median of the frames in which the animal is not on
 * that pixel (all of them where it covered the pixel in nearly every frame).
 */
function medianWithout(
  grid: CoarseGrid,
  frames: Uint8Array[],
  covered: Uint8Array[],
  reference: Float32Array,
  region: Region,
): Float32Array {
  const { cw, ch, f } = grid;
  const repaired = Float32Array.from(reference);
  const values = new Uint8Array(frames.length);
  for (let y = region.y; y < region.y + region.height; y++) {
    const cellRow = Math.min(Math.floor(y / f), ch - 1) * cw;
    for (let x = region.x; x < region.x + region.width; x++) {
      const i = y * grid.width + x;
      const cell = cellRow + Math.min(Math.floor(x / f), cw - 1);
      let n = 0;
      for (let k = 0; k < frames.length; k++) {
        if (!(covered[k] as Uint8Array)[cell]) values[n++] = (frames[k] as Uint8Array)[i] as number;
      }
      if (n < MIN_REPAIR_FRAMES) {
        n = frames.length;
        for (let k = 0; k < n; k++) values[k] = (frames[k] as Uint8Array)[i] as number;
      }
      const sorted = values.subarray(0, n).sort();
      const middle = n >> 1;
      repaired[i] =
        n % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
    }
  }
  return repaired;
}

/**
 * The reference inside `region` without the animal, in two rounds. First from the frames that show the ghost
 * (the animal is away from its resting place), leaving out where the animal is seen; against that reference the
 * animal shows in every frame, also where it rests, so the second round takes the median of all the frames, each
 * without the animal.
 */
function repair(
  grid: CoarseGrid,
  parameters: BodyParameters,
  ghosts: Sighting[],
  animalSign: number,
  frames: readonly Uint8Array[],
  reference: Float32Array,
  region: Region,
): Pick<ReferenceCheck, 'repaired' | 'repairFrames'> {
  const shown = ghosts.map((s) => frames[s.frame] as Uint8Array);
  if (shown.length < MIN_REPAIR_FRAMES) return { repaired: null, repairFrames: 0 };
  const first = medianWithout(grid, shown, coverage(grid, parameters, shown, animalSign), reference, region);
  const all = [...frames];
  const against = new CoarseGrid(grid.width, grid.height, first, grid.exclusionMask);
  const second = medianWithout(grid, all, coverage(against, parameters, all, animalSign), reference, region);
  return { repaired: second, repairFrames: shown.length };
}
