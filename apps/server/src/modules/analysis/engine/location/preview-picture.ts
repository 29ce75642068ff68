/**
 * The preview of a location-tracking run (issue 22): the run's tracker on a short window of frames — the same
 * code a run's piece runs, from no previous position — and a picture of the window's last frame with the zones,
 * the exclusion regions, the window's track and the tracked point drawn, so the settings can be checked before a
 * whole run.
 */

import { encodePng } from '../preview.js';
import type { LocationPreviewResult, LocationPreviewTask } from '../tasks.js';
import { polygonsMask } from './polygon-mask.js';
import { trackFrameRange } from './track-range.js';
import { createTracker } from './trackers.js';

type Rgb = readonly [number, number, number];

/** Zone outlines cycle through the Location Tracker's default zone colours, in its order (web zones.ts). */
const ZONE_COLOURS: Rgb[] = [
  [245, 158, 11],
  [56, 189, 248],
  [163, 230, 53],
  [244, 114, 182],
  [167, 139, 250],
  [251, 113, 133],
  [45, 212, 191],
  [250, 204, 21],
];
const EXCLUDED: Rgb = [30, 30, 30];
const TRAIL: Rgb = [250, 204, 21];
const POINT: Rgb = [239, 68, 68];
const RING: Rgb = [255, 255, 255];

export async function runLocationPreview(
  task: LocationPreviewTask,
  signal?: AbortSignal,
): Promise<LocationPreviewResult> {
  const { width, height } = task.source;
  const last = new Uint8Array(width * height);
  const { x, y } = await trackFrameRange(task, (handoff) => createTracker({ ...task.tracker, handoff }), null, {
    signal,
    onTracked: (frame) => last.set(frame),
  });
  return { x, y, png: encodePng(drawPreview(task, last, x, y), width, height) };
}

/** The picture: the gray frame, exclusions darkened, zones tinted and outlined, the track, the last position. */
export function drawPreview(
  task: Pick<LocationPreviewTask, 'zones' | 'tracker'>,
  frame: Uint8Array,
  x: Float64Array,
  y: Float64Array,
): Uint8Array {
  const { width, height } = task.tracker;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) rgb.fill(frame[i]!, i * 3, i * 3 + 3);
  const blend = (i: number, colour: Rgb, amount: number) => {
    for (let c = 0; c < 3; c++) rgb[i * 3 + c] = Math.round(rgb[i * 3 + c]! * (1 - amount) + colour[c]! * amount);
  };
  if (task.tracker.exclusions.length > 0) {
    const excluded = polygonsMask(task.tracker.exclusions, width, height);
    for (let i = 0; i < excluded.length; i++) if (excluded[i]) blend(i, EXCLUDED, 0.6);
  }
  task.zones.forEach((zone, index) => {
    const colour = ZONE_COLOURS[index % ZONE_COLOURS.length]!;
    // The zone exactly as the summary counts it (its mask), outlined where the mask meets the outside.
    const mask = polygonsMask([zone.points], width, height);
    const inside = (c: number, r: number) => c >= 0 && r >= 0 && c < width && r < height && mask[r * width + c] === 1;
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        if (!mask[r * width + c]) continue;
        const edge = !inside(c - 1, r) || !inside(c + 1, r) || !inside(c, r - 1) || !inside(c, r + 1);
        const nearEdge = edge || !inside(c - 2, r) || !inside(c + 2, r) || !inside(c, r - 2) || !inside(c, r + 2);
        blend(r * width + c, colour, edge ? 1 : nearEdge ? 0.8 : 0.12);
      }
    }
  });
  const paint = (c: number, r: number, colour: Rgb) => {
    if (c >= 0 && r >= 0 && c < width && r < height) rgb.set(colour, (r * width + c) * 3);
  };
  // The track: a line between consecutive positions (none across a frame without one).
  for (let i = 1; i < x.length; i++) {
    if (Number.isNaN(x[i]!) || Number.isNaN(x[i - 1]!)) continue;
    drawLine(x[i - 1]!, y[i - 1]!, x[i]!, y[i]!, (c, r) => paint(c, r, TRAIL));
  }
  const lastIndex = x.length - 1;
  if (lastIndex >= 0 && !Number.isNaN(x[lastIndex]!)) {
    const cx = x[lastIndex]!;
    const cy = y[lastIndex]!;
    for (let r = Math.floor(cy - 7); r <= Math.ceil(cy + 7); r++) {
      for (let c = Math.floor(cx - 7); c <= Math.ceil(cx + 7); c++) {
        const d = Math.hypot(c + 0.5 - cx, r + 0.5 - cy);
        if (d <= 4.5) paint(c, r, POINT);
        else if (d <= 6.5) paint(c, r, RING);
      }
    }
  }
  return rgb;
}

/** The pixels of a straight line from (x0, y0) to (x1, y1), one per step along its longer axis. */
function drawLine(x0: number, y0: number, x1: number, y1: number, plot: (c: number, r: number) => void) {
  const steps = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
  for (let s = 0; s <= steps; s++) {
    const t = s / steps;
    plot(Math.floor(x0 + (x1 - x0) * t), Math.floor(y0 + (y1 - y0) * t));
  }
}
