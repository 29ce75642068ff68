import { describe, expect, it } from 'vitest';
import { drawPreview } from './preview-picture.js';

const W = 60;
const H = 40;
const pixel = (rgb: Uint8Array, x: number, y: number) => Array.from(rgb.subarray((y * W + x) * 3, (y * W + x) * 3 + 3));

describe('the location preview picture', () => {
  it('draws the frame, the zone as its mask is counted, the darkened exclusions, the track and the last point', () => {
    const frame = new Uint8Array(W * H).fill(100);
    const zone = {
      name: 'Box',
      points: [
        [10, 10],
        [30, 10],
        [30, 30],
        [10, 30],
      ] as [number, number][],
    };
    const exclusion = [
      [45, 0],
      [59, 0],
      [59, 10],
      [45, 10],
    ] as [number, number][];
    const x = Float64Array.from([5, 20, Number.NaN, 40]);
    const y = Float64Array.from([35, 20, Number.NaN, 25]);
    const rgb = drawPreview(
      { zones: [zone], tracker: { width: W, height: H, exclusions: [exclusion] } as never },
      frame,
      x,
      y,
    );
    expect(rgb).toHaveLength(W * H * 3);
    // Untouched far from everything.
    expect(pixel(rgb, 2, 2)).toEqual([100, 100, 100]);
    // The zone's outline in its colour (the first of the tracker page's palette), its inside lightly tinted.
    expect(pixel(rgb, 10, 20)).toEqual([245, 158, 11]);
    expect(pixel(rgb, 30, 20)).toEqual([245, 158, 11]);
    expect(pixel(rgb, 20, 14)).not.toEqual([100, 100, 100]);
    expect(pixel(rgb, 20, 14)[0]).toBeLessThan(130);
    // The exclusion is darkened.
    expect(pixel(rgb, 52, 5)[0]).toBeLessThan(60);
    // The track: from (5, 35) to (20, 20) drawn; nothing across the frame without a position to (40, 25).
    expect(pixel(rgb, 12, 28)).toEqual([250, 204, 21]);
    expect(pixel(rgb, 30, 22)).not.toEqual([250, 204, 21]);
    // The last position: a red point with a white ring.
    expect(pixel(rgb, 40, 25)).toEqual([239, 68, 68]);
    expect(pixel(rgb, 45, 25)).toEqual([255, 255, 255]);
  });

  it('draws no point when the last frame has no position', () => {
    const frame = new Uint8Array(W * H).fill(100);
    const rgb = drawPreview(
      { zones: [], tracker: { width: W, height: H, exclusions: [] } as never },
      frame,
      Float64Array.from([20, Number.NaN]),
      Float64Array.from([20, Number.NaN]),
    );
    expect(rgb.every((value) => value === 100)).toBe(true);
  });
});
