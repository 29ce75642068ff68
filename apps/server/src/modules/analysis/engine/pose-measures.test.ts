import { describe, expect, it } from 'vitest';
import { encodeBlocks } from '../../pose/pose-file.js';
import { cleanTrack, measureSeries, poseSeries, readKeypoint } from './pose-measures.js';

/** An hour at 30 fps of 2 animals × 13 keypoints, as the pose set stores it. */
function hourSet() {
  const frameCount = 108_000;
  const keypointCount = 26;
  const values = Array.from({ length: keypointCount * 3 }, (_, s) => {
    const column = new Float32Array(frameCount);
    const k = Math.floor(s / 3);
    for (let f = 0; f < frameCount; f++) column[f] = s % 3 === 2 ? 0.9 : 100 + k + (s % 3) * 50 + (f % 97) / 4;
    return column;
  });
  const chunks = [...encodeBlocks({ frameCount, keypointCount, values })];
  const bytes = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, frameCount, keypointCount, values };
}

describe('pose measures', () => {
  it('reads a keypoint out of the stored blocks and derives an hour in well under a second', () => {
    const set = hourSet();
    const k = 17;
    const read = readKeypoint(set.bytes, set.frameCount, set.keypointCount, k);
    for (const f of [0, 1023, 1024, 54_321, 107_999]) {
      expect([read.x[f], read.y[f], read.likelihood[f]]).toEqual([
        set.values[k * 3]![f],
        set.values[k * 3 + 1]![f],
        set.values[k * 3 + 2]![f],
      ]);
    }
    const started = performance.now();
    const { values } = poseSeries({
      bytes: set.bytes,
      frameCount: set.frameCount,
      keypointCount: set.keypointCount,
      keypoints: [3, 9, 17],
      measure: 'angle',
      fps: 30,
      likelihoodCutoff: 0.6,
      hasLikelihood: true,
      maxGapFrames: 5,
    });
    expect(values).toHaveLength(set.frameCount);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('fills a gap of at most max_gap_frames between two points, never at the ends', () => {
    const nan = Number.NaN;
    const x = Float32Array.from([nan, 0, nan, nan, 3, nan, nan, nan, 7, nan]);
    const raw = { x, y: Float32Array.from(x, (v) => v * 2), likelihood: new Float32Array(10).fill(1) };
    const stats = { missing_points: 0, interpolated_points: 0 };
    const track = cleanTrack(raw, { likelihoodCutoff: 0.5, hasLikelihood: true, maxGapFrames: 2 }, stats);
    expect(Array.from(track.x)).toEqual([nan, 0, 1, 2, 3, nan, nan, nan, 7, nan]);
    expect(Array.from(track.y)).toEqual([nan, 0, 2, 4, 6, nan, nan, nan, 14, nan]);
    expect(stats).toEqual({ missing_points: 7, interpolated_points: 2 });
  });

  it('a set without likelihoods counts every point; one with them drops those below the cutoff', () => {
    const raw = {
      x: Float32Array.from([1, 2, 3]),
      y: Float32Array.from([1, 2, 3]),
      likelihood: Float32Array.from([Number.NaN, 0.1, Number.NaN]),
    };
    const count = (hasLikelihood: boolean) => {
      const stats = { missing_points: 0, interpolated_points: 0 };
      cleanTrack(raw, { likelihoodCutoff: 0.5, hasLikelihood, maxGapFrames: 0 }, stats);
      return stats.missing_points;
    };
    expect(count(false)).toBe(0);
    expect(count(true)).toBe(1);
  });

  it('angles: 90° and 180° exactly, none when a point sits on the joint', () => {
    const track = (points: [number, number][]) => ({
      x: Float64Array.from(points, (p) => p[0]),
      y: Float64Array.from(points, (p) => p[1]),
    });
    const a = track([
      [1, 0],
      [-1, 0],
      [0, 0],
    ]);
    const b = track([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    const c = track([
      [0, 1],
      [1, 0],
      [0, 1],
    ]);
    expect(Array.from(measureSeries('angle', [a, b, c], 30))).toEqual([90, 180, Number.NaN]);
    expect(Array.from(measureSeries('speed', [c], 10))).toEqual([Number.NaN, 10 * Math.SQRT2, 10 * Math.SQRT2]);
  });
});
