/**
 * The figures of a location-tracking run for a paper (issue 22, ADR 025): `track` — the path of the positions —
 * and `heatmap` — the time spent per spatial bin — each over the run's reference picture, with the zones outlined
 * and named and a scale bar when the run has a scale. This file lays a figure out once, in the video's pixels
 * (pixel c covers [c, c + 1), as the positions do); figure-svg.ts and figure-raster.ts draw that one layout, so
 * the SVG and the PNG are the same figure (the PNG without its words: figure-raster.ts says why).
 *
 * - Path: the positions in frame order, broken where a frame has no position (NaN), so a gap is never bridged
 *   by a straight line. Decimated for drawing only: in each unbroken run, a position closer than one pixel to the
 *   last one kept is skipped; a run's first and last positions are always kept. A run of one position is a dot.
 * - Heat map: square bins of `heatmapBinPx` pixels from the picture's top-left corner (the last row and column
 *   of bins may be cut by the picture's edge); a frame with a position at (x, y) adds 1 / fps seconds to bin
 *   (⌊x / b⌋, ⌊y / b⌋); positions off the picture count nowhere. No smoothing. Colour: viridis from 0 to the
 *   fullest bin's time; empty bins are not painted.
 */
import { type Box, INK, PAPER, type Rgb } from '../../../../lib/figures/raster.js';
import type { Scale } from './summary.js';

export { type Box, INK, PAPER, type Rgb };

export const FIGURE_NAMES = ['track', 'heatmap'] as const;
export type FigureName = (typeof FIGURE_NAMES)[number];
export const FIGURE_FORMATS = ['png', 'svg'] as const;
export type FigureFormat = (typeof FIGURE_FORMATS)[number];

export interface FigureInput {
  name: FigureName;
  width: number;
  height: number;
  fps: number;
  /** Frame f's position (NaN: none). */
  x: Float64Array;
  y: Float64Array;
  /** The run's reference picture (grey 0–255, width × height); null draws on white. */
  reference: Float32Array | null;
  zones: readonly { name: string; points: readonly (readonly [number, number])[] }[];
  scale: Scale | null;
}

/** Bins across the picture's longer side. */
export const HEATMAP_BINS_ACROSS = 64;

/** The heat map's bin side in pixels: the longer side over 64, rounded up (5 px for 320 × 240, 30 for 1920). */
export const heatmapBinPx = (width: number, height: number) =>
  Math.max(1, Math.ceil(Math.max(width, height) / HEATMAP_BINS_ACROSS));

export interface Occupancy {
  binPx: number;
  columns: number;
  rows: number;
  /** Frames per bin, row-major (bin (c, r) at r × columns + c). */
  frames: Uint32Array;
}

/** The frames with a position in each bin (ADR 025). */
export function occupancy(x: Float64Array, y: Float64Array, width: number, height: number): Occupancy {
  const binPx = heatmapBinPx(width, height);
  const columns = Math.ceil(width / binPx);
  const rows = Math.ceil(height / binPx);
  const frames = new Uint32Array(columns * rows);
  for (let f = 0; f < x.length; f++) {
    const px = x[f]!;
    const py = y[f]!;
    // NaN fails both comparisons: a frame without a position counts nowhere.
    if (!(px >= 0 && px < width && py >= 0 && py < height)) continue;
    frames[Math.floor(py / binPx) * columns + Math.floor(px / binPx)]!++;
  }
  return { binPx, columns, rows, frames };
}

/**
 * The path to draw: one flat [x0, y0, x1, y1, …] list per unbroken run of positions, each position closer than
 * `minStep` pixels to the last one kept skipped (the run's last position is always kept).
 */
export function decimatedRuns(x: Float64Array, y: Float64Array, minStep = 1): number[][] {
  const runs: number[][] = [];
  let run: number[] | null = null;
  let lastX = 0;
  let lastY = 0;
  let skipped = false;
  const close = (f: number) => {
    // Keep where the run ended, even when it lies within a pixel of the last kept position.
    if (run && skipped) run.push(x[f - 1]!, y[f - 1]!);
    run = null;
  };
  for (let f = 0; f < x.length; f++) {
    const px = x[f]!;
    const py = y[f]!;
    if (Number.isNaN(px) || Number.isNaN(py)) {
      close(f);
      continue;
    }
    if (!run) {
      run = [px, py];
      runs.push(run);
    } else if (Math.hypot(px - lastX, py - lastY) >= minStep) {
      run.push(px, py);
    } else {
      skipped = true;
      continue;
    }
    lastX = px;
    lastY = py;
    skipped = false;
  }
  close(x.length);
  return runs;
}

/** A round length for the scale bar: the largest 1, 2 or 5 × 10ⁿ of the unit not longer than `maxPx`. */
export function scaleBarLength(scale: Scale, maxPx: number): { units: number; px: number } {
  const perPixel = scale.true_distance / scale.px_distance;
  const most = maxPx * perPixel * (1 + 1e-12);
  let power = 10 ** Math.floor(Math.log10(most));
  // log10 of an exact power of ten may come out just below it.
  if (power * 10 <= most) power *= 10;
  const step = [5, 2, 1].find((candidate) => candidate * power <= most) ?? 1;
  // Decimal powers below 1 are inexact in binary; name the length as a person would write it.
  const units = Number((step * power).toPrecision(12));
  return { units, px: units / perPixel };
}

/** Viridis (matplotlib's, CC0) at nine evenly spaced stops; colours between are linear. */
const VIRIDIS: readonly Rgb[] = [
  [68, 1, 84],
  [71, 44, 122],
  [59, 81, 139],
  [44, 113, 142],
  [33, 144, 141],
  [39, 173, 129],
  [92, 200, 99],
  [170, 220, 50],
  [253, 231, 37],
];

export function viridis(t: number): Rgb {
  const clamped = Math.min(1, Math.max(0, Number.isNaN(t) ? 0 : t));
  const at = clamped * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(at));
  const f = at - i;
  const a = VIRIDIS[i]!;
  const b = VIRIDIS[i + 1]!;
  return [0, 1, 2].map((k) => Math.round(a[k]! + (b[k]! - a[k]!) * f)) as unknown as Rgb;
}

/** Zone outlines (Okabe & Ito's colour-blind-safe set without the track's vermilion), in the zones' order. */
export const ZONE_COLOURS: readonly Rgb[] = [
  [0, 114, 178],
  [0, 158, 115],
  [230, 159, 0],
  [204, 121, 167],
  [86, 180, 233],
  [240, 228, 66],
];
export const TRACK_COLOUR: Rgb = [213, 94, 0];
export const START_COLOUR: Rgb = [255, 255, 255];
/** Marker radius of the path's start and end, in line widths. */
export const MARKER_RADIUS = 2.5;

export interface FigureLayout {
  width: number;
  height: number;
  reference: Float32Array | null;
  /** Line width of the path and the zones, in pixels. */
  stroke: number;
  fontSize: number;
  heat: {
    binPx: number;
    columns: number;
    rows: number;
    /** Seconds per bin, row-major. */
    seconds: Float64Array;
    maxSeconds: number;
    opacity: number;
    colourBar: { backing: Box; bar: Box; labelX: number };
  } | null;
  zones: {
    name: string;
    points: readonly (readonly [number, number])[];
    colour: Rgb;
    label: { x: number; y: number };
  }[];
  track: { runs: number[][]; colour: Rgb; start: [number, number] | null; end: [number, number] | null } | null;
  scaleBar: {
    backing: Box;
    bar: Box;
    label: string;
    units: number;
    unit: string;
    labelX: number;
    labelY: number;
  } | null;
}

/** Seconds as a colour bar's label prints them. */
export const formatSeconds = (seconds: number) => `${Number(seconds.toPrecision(3))} s`;

/** Where everything goes (the picture's own size; margins and sizes grow with it). */
export function layoutFigure(input: FigureInput): FigureLayout {
  const { width, height, name } = input;
  const short = Math.min(width, height);
  const margin = Math.max(4, Math.round(short * 0.03));
  const fontSize = Math.max(9, Math.round(short * 0.045));
  const stroke = Math.max(1, short / 300);
  const pad = Math.max(2, Math.round(fontSize * 0.3));

  let heat: FigureLayout['heat'] = null;
  if (name === 'heatmap') {
    const counts = occupancy(input.x, input.y, width, height);
    const seconds = Float64Array.from(counts.frames, (frames) => frames / input.fps);
    const maxSeconds = seconds.reduce((most, value) => Math.max(most, value), 0);
    const barWidth = Math.max(6, Math.round(width * 0.025));
    const barHeight = Math.max(20, Math.round(height * 0.35));
    // Room on the bar's left for its longest label (about 0.6 em a character).
    const labelRoom = Math.ceil(fontSize * 0.6 * formatSeconds(maxSeconds).length) + pad;
    const backing = {
      x: width - margin - barWidth - labelRoom - 2 * pad,
      y: margin,
      width: barWidth + labelRoom + 2 * pad,
      height: barHeight + 2 * pad,
    };
    heat = {
      binPx: counts.binPx,
      columns: counts.columns,
      rows: counts.rows,
      seconds,
      maxSeconds,
      opacity: 0.75,
      colourBar: {
        backing,
        bar: { x: width - margin - pad - barWidth, y: margin + pad, width: barWidth, height: barHeight },
        labelX: width - margin - pad - barWidth - pad,
      },
    };
  }

  const zones = input.zones.map((zone, z) => {
    const left = Math.min(...zone.points.map((p) => p[0]));
    const top = Math.min(...zone.points.map((p) => p[1]));
    return {
      name: zone.name,
      points: zone.points,
      colour: ZONE_COLOURS[z % ZONE_COLOURS.length]!,
      label: { x: left + pad, y: top + pad + fontSize * 0.8 },
    };
  });

  let track: FigureLayout['track'] = null;
  if (name === 'track') {
    const runs = decimatedRuns(input.x, input.y);
    const first = runs[0];
    const last = runs[runs.length - 1];
    track = {
      runs,
      colour: TRACK_COLOUR,
      start: first ? [first[0]!, first[1]!] : null,
      end: last ? [last[last.length - 2]!, last[last.length - 1]!] : null,
    };
  }

  let scaleBar: FigureLayout['scaleBar'] = null;
  if (input.scale) {
    const length = scaleBarLength(input.scale, width * 0.25);
    const thickness = Math.max(2, Math.round(short * 0.012));
    const backing = {
      x: margin,
      y: height - margin - (fontSize + thickness + 3 * pad),
      width: length.px + 2 * pad,
      height: fontSize + thickness + 3 * pad,
    };
    scaleBar = {
      backing,
      bar: { x: margin + pad, y: height - margin - pad - thickness, width: length.px, height: thickness },
      units: length.units,
      unit: input.scale.unit,
      label: `${length.units} ${input.scale.unit}`,
      labelX: margin + pad + length.px / 2,
      labelY: backing.y + pad + fontSize * 0.8,
    };
  }

  return { width, height, reference: input.reference, stroke, fontSize, heat, zones, track, scaleBar };
}
