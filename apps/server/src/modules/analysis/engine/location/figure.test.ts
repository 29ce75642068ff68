/**
 * The location figures' numbers and pictures (ADR 025): heat-map bins against a small reference implementation
 * of the documented binning on generated tracks with known truth, the drawn path against the documented
 * decimation, the scale bar's round lengths, and the PNG read back pixel by pixel.
 */
import { describe, expect, it } from 'vitest';
import { readPng } from '../../../../../test/png-read.js';
import {
  decimatedRuns,
  type FigureInput,
  heatmapBinPx,
  layoutFigure,
  occupancy,
  scaleBarLength,
  TRACK_COLOUR,
  viridis,
  ZONE_COLOURS,
} from './figure.js';
import { referenceBinSeconds, referencePath } from './figure.reference.js';
import { renderFigurePng } from './figure-raster.js';
import { renderFigureSvg } from './figure-svg.js';

/** A seeded generator, so a failing track can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A wandering animal with lost frames (NaN) and a few positions off the picture. */
function wanderingTrack(frames: number, width: number, height: number, seed: number) {
  const next = random(seed);
  const x: number[] = [];
  const y: number[] = [];
  let px = width / 2;
  let py = height / 2;
  for (let f = 0; f < frames; f++) {
    px = Math.min(width + 3, Math.max(-3, px + (next() - 0.5) * 6));
    py = Math.min(height + 3, Math.max(-3, py + (next() - 0.5) * 6));
    const lost = next() < 0.05;
    x.push(lost ? Number.NaN : px);
    y.push(lost ? Number.NaN : py);
  }
  return { x, y };
}

function input(overrides: Partial<FigureInput>): FigureInput {
  return {
    name: 'track',
    width: 320,
    height: 240,
    fps: 30,
    x: new Float64Array(),
    y: new Float64Array(),
    reference: null,
    zones: [],
    scale: null,
    ...overrides,
  };
}

describe('heat map bins', () => {
  it('sizes bins by the longer side over 64, rounded up', () => {
    expect(heatmapBinPx(320, 240)).toBe(5);
    expect(heatmapBinPx(1920, 1080)).toBe(30);
    expect(heatmapBinPx(640, 480)).toBe(10);
    expect(heatmapBinPx(100, 30)).toBe(2);
    expect(heatmapBinPx(20, 10)).toBe(1);
  });

  it('counts a known stay: 1 s in one bin, 2 s in another, lost frames nowhere', () => {
    const fps = 30;
    const x = [...Array(30).fill(12.3), ...Array(10).fill(Number.NaN), ...Array(60).fill(319.9)];
    const y = [...Array(30).fill(7.9), ...Array(10).fill(Number.NaN), ...Array(60).fill(239.5)];
    const counts = occupancy(Float64Array.from(x), Float64Array.from(y), 320, 240);
    expect([counts.binPx, counts.columns, counts.rows]).toEqual([5, 64, 48]);
    const nonEmpty = [...counts.frames.entries()].filter(([, frames]) => frames > 0);
    // (12.3, 7.9) is in bin (2, 1); (319.9, 239.5) in the last bin (63, 47).
    expect(nonEmpty).toEqual([
      [1 * 64 + 2, 30],
      [47 * 64 + 63, 60],
    ]);
    const heat = layoutFigure(input({ name: 'heatmap', fps, x: Float64Array.from(x), y: Float64Array.from(y) })).heat!;
    expect([heat.seconds[1 * 64 + 2], heat.seconds[47 * 64 + 63], heat.maxSeconds]).toEqual([1, 2, 2]);
  });

  it.each([
    [320, 240, 1],
    [333, 211, 2],
    [1920, 1080, 3],
    [50, 37, 4],
  ])('equals the reference on a wandering track over %i × %i (seed %i)', (width, height, seed) => {
    const fps = 25;
    const { x, y } = wanderingTrack(4000, width, height, seed);
    const counts = occupancy(Float64Array.from(x), Float64Array.from(y), width, height);
    const expected = referenceBinSeconds(x, y, width, height, fps);
    const got = new Map<string, number>();
    counts.frames.forEach((frames, i) => {
      if (frames > 0) got.set(`${i % counts.columns},${Math.floor(i / counts.columns)}`, frames / fps);
    });
    expect(got).toEqual(expected);
    // Every frame on the picture is counted once.
    const onPicture = x.filter((px, f) => px >= 0 && px < width && y[f]! >= 0 && y[f]! < height).length;
    expect(counts.frames.reduce((sum, frames) => sum + frames, 0)).toBe(onPicture);
  });

  it('the SVG holds one cell per non-empty bin, with its seconds and colour', () => {
    const { x, y } = wanderingTrack(3000, 320, 240, 7);
    const layout = layoutFigure(input({ name: 'heatmap', x: Float64Array.from(x), y: Float64Array.from(y) }));
    const svg = renderFigureSvg(layout, 'Heat map');
    const cells = [
      ...svg.matchAll(/<rect x="(\d+)" y="(\d+)" width="5" height="5" fill="(#[0-9a-f]{6})" data-seconds="([^"]+)"/g),
    ];
    const expected = referenceBinSeconds(x, y, 320, 240, 30);
    expect(cells).toHaveLength(expected.size);
    const max = Math.max(...expected.values());
    for (const [, left, top, fill, seconds] of cells) {
      const key = `${Number(left) / 5},${Number(top) / 5}`;
      expect(Number(seconds)).toBeCloseTo(expected.get(key)!, 12);
      const hex = `#${viridis(expected.get(key)! / max)
        .map((c) => c.toString(16).padStart(2, '0'))
        .join('')}`;
      expect(fill).toBe(hex);
    }
  });
});

describe('the drawn path', () => {
  it('breaks at lost frames and skips positions within a pixel of the last kept', () => {
    const x = [0, 0.5, 0.9, 1.2, 5, Number.NaN, 10, 10.2, Number.NaN, 20, Number.NaN];
    const y = [0, 0, 0, 0, 0, Number.NaN, 10, 10.3, Number.NaN, 20, Number.NaN];
    expect(decimatedRuns(Float64Array.from(x), Float64Array.from(y))).toEqual([
      [0, 0, 1.2, 0, 5, 0],
      // The run's last position is kept though it lies within a pixel.
      [10, 10, 10.2, 10.3],
      [20, 20],
    ]);
  });

  it('keeps every position a pixel or more apart, and no run bridges a gap', () => {
    const { x, y } = wanderingTrack(5000, 320, 240, 11);
    const runs = decimatedRuns(Float64Array.from(x), Float64Array.from(y));
    const expected = referencePath(x, y).map((piece) => piece.flat());
    expect(runs).toEqual(expected);
    expect(runs.length).toBe(expected.length);
  });

  it('draws the path, its start and end, and the zones into the PNG; nothing elsewhere', () => {
    const reference = new Float32Array(320 * 240).fill(128);
    // A horizontal stroke along y = 120.5 from x = 40 to 280, then lost, then a dot at (300.5, 20.5).
    const x = [...Array.from({ length: 241 }, (_, i) => 40 + i), Number.NaN, 300.5];
    const y = [...Array(241).fill(120.5), Number.NaN, 20.5];
    const zone = {
      name: 'Corner',
      points: [
        [10.5, 10.5],
        [60.5, 10.5],
        [60.5, 60.5],
        [10.5, 60.5],
      ] as [number, number][],
    };
    const layout = layoutFigure(input({ x: Float64Array.from(x), y: Float64Array.from(y), reference, zones: [zone] }));
    const png = readPng(renderFigurePng(layout));
    expect([png.width, png.height, png.channels]).toEqual([320, 240, 3]);
    const at = (px: number, py: number) =>
      Array.from(png.pixels.subarray(3 * (py * 320 + px), 3 * (py * 320 + px) + 3));
    expect(at(150, 120)).toEqual([...TRACK_COLOUR]);
    expect(at(150, 100)).toEqual([128, 128, 128]);
    // The zone's top edge runs through the centres of pixel row 10; its inside is left alone.
    expect(at(35, 10)).toEqual([...ZONE_COLOURS[0]!]);
    expect(at(35, 35)).toEqual([128, 128, 128]);
    // The end marker (black ringed white) is the lone dot after the gap.
    expect(at(300, 20)).toEqual([0, 0, 0]);
    // The start marker is white ringed black.
    expect(at(40, 120)).toEqual([255, 255, 255]);
    // Nothing bridges the gap from (280, 120) to (300, 20).
    expect(at(290, 70)).toEqual([128, 128, 128]);
  });
});

describe('a run without positions', () => {
  it('draws the reference, the zones and an empty path or heat map', () => {
    const x = Float64Array.from([Number.NaN, Number.NaN]);
    const y = Float64Array.from([Number.NaN, Number.NaN]);
    const reference = new Float32Array(320 * 240).fill(99.5);
    for (const name of ['track', 'heatmap'] as const) {
      const layout = layoutFigure(input({ name, x, y, reference }));
      const svg = renderFigureSvg(layout, 'Nothing tracked');
      expect(svg).not.toMatch(/data-seconds|<circle/);
      if (name === 'track') expect(svg).toContain('<path d=""');
      const png = readPng(renderFigurePng(layout));
      // Half grey levels round up, as the SVG's embedded reference does.
      if (name === 'track') expect(new Set(png.pixels)).toEqual(new Set([100]));
    }
  });
});

describe('scale bar', () => {
  it('is the longest 1, 2 or 5 × 10ⁿ of the unit that fits', () => {
    // 100 px = 5 cm: 0.05 cm a pixel.
    const scale = { px_distance: 100, true_distance: 5, unit: 'cm' as const };
    expect(scaleBarLength(scale, 80)).toEqual({ units: 2, px: 40 });
    expect(scaleBarLength(scale, 100)).toEqual({ units: 5, px: 100 });
    expect(scaleBarLength(scale, 20)).toEqual({ units: 1, px: 20 });
    expect(scaleBarLength(scale, 19)).toEqual({ units: 0.5, px: 10 });
    expect(scaleBarLength({ px_distance: 3, true_distance: 1000, unit: 'mm' }, 3)).toEqual({ units: 1000, px: 3 });
    const small = scaleBarLength({ px_distance: 1000, true_distance: 0.3, unit: 'm' }, 80);
    expect(small.units).toBe(0.02);
    expect(small.px).toBeCloseTo(66.667, 3);
  });

  it('is drawn at its length in the SVG and the PNG', () => {
    const scale = { px_distance: 100, true_distance: 5, unit: 'cm' as const };
    const layout = layoutFigure(input({ scale }));
    const svg = renderFigureSvg(layout, 'x');
    // A quarter of 320 px is 4 cm at most: the bar is 2 cm, 40 px.
    expect(svg).toMatch(/<g id="scale-bar" data-length="2" data-unit="cm" data-px="40">/);
    expect(svg).toMatch(/<rect class="bar" x="\d+" y="[\d.]+" width="40" /);
    expect(svg).toContain('>2 cm</text>');
    const bar = layout.scaleBar!.bar;
    const png = readPng(renderFigurePng(layout));
    const row = Math.floor(bar.y + bar.height / 2);
    const black = Array.from({ length: 320 }, (_, c) => c).filter((c) => png.pixels[3 * (row * 320 + c)] === 0);
    expect(black).toHaveLength(40);
  });
});
