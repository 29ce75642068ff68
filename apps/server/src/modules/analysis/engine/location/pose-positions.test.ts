import { describe, expect, it } from 'vitest';
import { encodeBlocks } from '../../../pose/pose-file.js';
import { posePositions } from './pose-positions.js';

/** One keypoint over `frames` frames: x = f, y = 2f, likelihood as given. */
function stored(frames: number, likelihood: (f: number) => number) {
  const x = Float32Array.from({ length: frames }, (_, f) => f);
  const y = Float32Array.from({ length: frames }, (_, f) => 2 * f);
  const l = Float32Array.from({ length: frames }, (_, f) => likelihood(f));
  const chunks = [...encodeBlocks({ frameCount: frames, keypointCount: 1, values: [x, y, l] })];
  return Buffer.concat(chunks.map((chunk) => Buffer.from(chunk)));
}

describe('positions from a pose body part', () => {
  it('fills short gaps, leaves long ones, and gives no position in a bypassed frame', () => {
    // Frames 3–4 low (filled), 10–16 low (7 > 5: left), frames 20–29 bypassed ([2, 3) s at 10 fps).
    const low = (f: number) => (f >= 3 && f < 5) || (f >= 10 && f < 17);
    const bytes = stored(40, (f) => (low(f) ? 0.2 : 0.9));
    const { x, y, stats } = posePositions({
      bytes: new Uint8Array(bytes),
      frameCount: 40,
      keypointCount: 1,
      keypoint: 0,
      likelihoodCutoff: 0.6,
      hasLikelihood: true,
      maxGapFrames: 5,
      fps: 10,
      bypassRanges: [[2, 3]],
    });
    const has = Array.from(x, (value) => !Number.isNaN(value));
    for (let f = 0; f < 40; f++) {
      const expected = !((f >= 10 && f < 17) || (f >= 20 && f < 30));
      expect(has[f], `frame ${f}`).toBe(expected);
      if (expected) expect([x[f], y[f]]).toEqual([f, 2 * f]);
    }
    expect(stats).toEqual({ missing_points: 9, interpolated_points: 2 });
  });
});
