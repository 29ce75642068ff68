/**
 * The figures of a location-tracking run, from its per-frame positions (issue 22). Definitions:
 *
 * - Frame f is shown at f / fps (plan.ts `frameTime`) and stands for 1 / fps of video. A frame *has a position*
 *   when x and y are numbers (NaN: none — nothing found, or a bypassed frame). `frames_tracked` counts them and
 *   `tracked_s` = frames_tracked / fps.
 * - Distance: the Euclidean step from frame f − 1 to frame f, counted when both have a position (so it restarts
 *   after a frame without one); no smoothing. `distance` is it in the scale's unit (× true_distance / px_distance).
 * - `mean_speed` = distance / tracked_s (unit/s; px/s without a scale); null when nothing was tracked.
 * - In a zone: the zone's filled mask at (⌊x⌋, ⌊y⌋) is set (ezTrack's rule; outside the picture is outside).
 * - Per zone: time_s = frames inside / fps; percent = frames inside / frames_tracked × 100; entries = the tracked
 *   frames inside whose previous *tracked* frame was outside (frames without a position are skipped, so losing
 *   the animal for a moment inside a zone is no new entry), plus one when the first tracked frame is inside;
 *   latency_s = (first tracked frame inside − first analysed frame) / fps, where the analysed frames are those
 *   outside the bypass ranges (a bypassed start — the animal being placed — is not waited for); 0 when the first
 *   analysed frame is inside, null if never inside; distance_px = the steps whose both ends are inside.
 * - Bins [k·bin_s, (k + 1)·bin_s) as freezing.ts cuts them (frame f in the bin of f / fps; the last ends at the
 *   duration): each figure over the bin's frames; a step belongs to the bin of its second frame; an entry to the
 *   bin of the frame that entered (its previous tracked frame may lie in an earlier bin, so the bins' entries add
 *   up to the run's); a bin's latency counts from its own first analysed frame.
 */
import { bypassCursor } from '../plan.js';

export type ScaleUnit = 'mm' | 'cm' | 'm' | 'in';

export interface Scale {
  px_distance: number;
  true_distance: number;
  unit: ScaleUnit;
}

/** A zone as the summary reads it: its filled polygon rasterised over the picture (1 = inside). */
export interface ZoneMask {
  name: string;
  mask: Uint8Array;
}

export interface LocationSummaryInput {
  /** x[f], y[f]: frame f's position in pixels, NaN for none. */
  x: Float64Array;
  y: Float64Array;
  fps: number;
  width: number;
  height: number;
  zones: readonly ZoneMask[];
  scale: Scale | null;
  binS: number | null;
  bypassRanges: readonly (readonly [number, number])[];
}

export interface ZoneFigures {
  name: string;
  time_s: number;
  percent: number | null;
  entries: number;
  latency_s: number | null;
  distance_px: number;
}

export interface LocationSummary {
  frames: number;
  frames_tracked: number;
  tracked_s: number;
  distance_px: number;
  distance: number | null;
  unit: ScaleUnit | null;
  mean_speed: number | null;
  zones: ZoneFigures[];
  bins: {
    start_s: number;
    end_s: number;
    frames_tracked: number;
    distance_px: number;
    distance: number | null;
    zones: ZoneFigures[];
  }[];
}

/** Absorbs decimal-to-binary error, as freezing.ts does (0.3 s / 0.1 s must be bin 3). */
const EPSILON = 1e-9;

/** Whether (x, y) lies in the mask: its pixel (⌊x⌋, ⌊y⌋) is set. */
export function insideMask(mask: Uint8Array, width: number, height: number, x: number, y: number): boolean {
  const column = Math.floor(x);
  const row = Math.floor(y);
  if (!(column >= 0 && row >= 0 && column < width && row < height)) return false;
  return mask[row * width + column] !== 0;
}

/** Per frame, which zones hold its position (one byte per zone per frame; 0 for a frame without a position). */
export function zoneMembership(input: Pick<LocationSummaryInput, 'x' | 'y' | 'width' | 'height' | 'zones'>) {
  const frames = input.x.length;
  const zones = input.zones.length;
  const inside = new Uint8Array(frames * zones);
  for (let f = 0; f < frames; f++) {
    const x = input.x[f]!;
    const y = input.y[f]!;
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    for (let z = 0; z < zones; z++) {
      if (insideMask(input.zones[z]!.mask, input.width, input.height, x, y)) inside[f * zones + z] = 1;
    }
  }
  return inside;
}

/** Per frame, the step from the frame before (NaN when either has no position; NaN for frame 0). */
export function stepLengths(x: Float64Array, y: Float64Array): Float64Array {
  const steps = new Float64Array(x.length).fill(Number.NaN);
  for (let f = 1; f < x.length; f++) steps[f] = Math.hypot(x[f]! - x[f - 1]!, y[f]! - y[f - 1]!);
  return steps;
}

/** Units per pixel of a scale. */
export function unitsPerPixel(scale: Scale): number {
  return scale.true_distance / scale.px_distance;
}

class Accumulator {
  framesTracked = 0;
  distancePx = 0;
  firstAnalysed = -1;
  readonly inside: number[];
  readonly entries: number[];
  readonly firstInside: number[];
  readonly zoneDistance: number[];

  constructor(zones: number) {
    this.inside = new Array(zones).fill(0);
    this.entries = new Array(zones).fill(0);
    this.firstInside = new Array(zones).fill(-1);
    this.zoneDistance = new Array(zones).fill(0);
  }

  figures(names: readonly string[], fps: number): ZoneFigures[] {
    return names.map((name, z) => ({
      name,
      time_s: this.inside[z]! / fps,
      percent: this.framesTracked === 0 ? null : (this.inside[z]! / this.framesTracked) * 100,
      entries: this.entries[z]!,
      latency_s: this.firstInside[z]! === -1 ? null : (this.firstInside[z]! - this.firstAnalysed) / fps,
      distance_px: this.zoneDistance[z]!,
    }));
  }
}

export function locationSummary(input: LocationSummaryInput): LocationSummary {
  const { x, y, fps, scale } = input;
  if (!(fps > 0) || !Number.isFinite(fps)) throw new RangeError(`fps must be a positive number, got ${fps}.`);
  if (x.length !== y.length) throw new RangeError('x and y must have one value per frame each.');
  const frames = x.length;
  const zoneCount = input.zones.length;
  const names = input.zones.map((zone) => zone.name);
  const inside = zoneMembership(input);
  const steps = stepLengths(x, y);
  const bypassed = bypassCursor(input.bypassRanges, fps);

  const binS = input.binS;
  const duration = frames / fps;
  const binCount = binS === null || frames === 0 ? 0 : Math.max(1, Math.ceil(duration / binS - EPSILON));
  const binOf = (frame: number) => Math.min(binCount - 1, Math.floor(frame / fps / binS! + EPSILON));
  const whole = new Accumulator(zoneCount);
  const bins = Array.from({ length: binCount }, () => new Accumulator(zoneCount));

  let previousTracked = -1;
  for (let f = 0; f < frames; f++) {
    const bin = binCount > 0 ? bins[binOf(f)]! : null;
    const parts = bin ? [whole, bin] : [whole];
    if (!bypassed(f)) for (const part of parts) if (part.firstAnalysed === -1) part.firstAnalysed = f;
    if (Number.isNaN(x[f]!) || Number.isNaN(y[f]!)) continue;
    const step = steps[f]!;
    for (const part of parts) {
      part.framesTracked++;
      if (!Number.isNaN(step)) part.distancePx += step;
    }
    for (let z = 0; z < zoneCount; z++) {
      if (inside[f * zoneCount + z] !== 1) continue;
      const entered = previousTracked === -1 || inside[previousTracked * zoneCount + z] !== 1;
      const bothInside = !Number.isNaN(step) && inside[(f - 1) * zoneCount + z] === 1;
      for (const part of parts) {
        part.inside[z]!++;
        if (entered) part.entries[z]!++;
        if (part.firstInside[z] === -1) part.firstInside[z] = f;
        if (bothInside) part.zoneDistance[z]! += step;
      }
    }
    previousTracked = f;
  }

  const toUnit = scale ? unitsPerPixel(scale) : null;
  const trackedS = whole.framesTracked / fps;
  const distance = toUnit === null ? null : whole.distancePx * toUnit;
  return {
    frames,
    frames_tracked: whole.framesTracked,
    tracked_s: trackedS,
    distance_px: whole.distancePx,
    distance,
    unit: scale?.unit ?? null,
    mean_speed: whole.framesTracked === 0 ? null : (distance ?? whole.distancePx) / trackedS,
    zones: whole.figures(names, fps),
    bins: bins.map((bin, k) => ({
      start_s: k * binS!,
      end_s: Math.min((k + 1) * binS!, duration),
      frames_tracked: bin.framesTracked,
      distance_px: bin.distancePx,
      distance: toUnit === null ? null : bin.distancePx * toUnit,
      zones: bin.figures(names, fps),
    })),
  };
}
