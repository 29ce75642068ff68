import { describe, expect, it } from 'vitest';
import { type CleanStart, FILE_START } from '../../../adapters/media/clean-start.js';
import { cutsAtKeyframes, maxLeadFrames, planSegments, withCleanStarts } from './plan.js';

const at = (frame: number): CleanStart => ({ frame, seekS: frame / 30, fromS: (frame - 0.5) / 30, allowed: [] });

describe('withCleanStarts', () => {
  const segments = planSegments(400, { parallelism: 4, maxSegmentFrames: 100, minSegmentFrames: 1 });

  it('gives each segment its start and the first the file start', () => {
    const started = withCleanStarts(segments, [null, at(90), at(180), at(299)], 100);
    expect(started.map((s) => [s.index, s.startFrame, s.endFrame, s.start])).toEqual([
      [0, 0, 100, FILE_START],
      [1, 100, 200, at(90)],
      [2, 200, 300, at(180)],
      [3, 300, 400, at(299)],
    ]);
  });

  it('joins a segment without a proven start, or with one too far back, to the one before', () => {
    const started = withCleanStarts(segments, [null, null, at(40), at(250)], 100);
    expect(started.map((s) => [s.index, s.startFrame, s.endFrame, s.start.frame])).toEqual([
      // Segment 1 has none, segment 2's would drop 159 frames: both join segment 0.
      [0, 0, 300, 0],
      [1, 300, 400, 250],
    ]);
    // A start past the frame before the segment is no start for it.
    expect(withCleanStarts(segments, [null, at(100), null, null], 100)).toHaveLength(1);
    // Nothing proven: one segment over the whole video.
    const one = withCleanStarts(segments, [], 100);
    expect(one.map((s) => [s.startFrame, s.endFrame])).toEqual([[0, 400]]);
  });

  it('allows a lead of 10 s of video or a segment, whichever is more', () => {
    expect(maxLeadFrames(30, 100)).toBe(300);
    expect(maxLeadFrames(30, 9000)).toBe(9000);
  });
});

describe('cutsAtKeyframes', () => {
  const halves = planSegments(18_000, { parallelism: 2, maxSegmentFrames: 9000, minSegmentFrames: 300 });
  const everyGop = (gop: number, frames: number) => Array.from({ length: Math.ceil(frames / gop) }, (_, i) => i * gop);

  it('moves a cut so the piece starts its look-back right at the nearest keyframe', () => {
    // x264's default GOP: a keyframe at 9000 itself; the frame before the cut (8999) would otherwise decode from 8750.
    expect(cutsAtKeyframes(halves, everyGop(250, 18_000), 1).map((s) => [s.startFrame, s.endFrame])).toEqual([
      [0, 9001],
      [9001, 18_000],
    ]);
    // A 600-frame warm-up (location pieces) reads from the keyframe nearest to 8400.
    expect(cutsAtKeyframes(halves, everyGop(300, 18_000), 600).map((s) => [s.startFrame, s.endFrame])).toEqual([
      [0, 9000],
      [9000, 18_000],
    ]);
    // Keyframes every 7 frames: 9002 is 3 frames from 8999, 8995 is 4: the cut moves to 9002 + 1.
    expect(cutsAtKeyframes(halves, everyGop(7, 18_000), 1)[1]!.startFrame).toBe(9003);
  });

  it('keeps a cut where no keyframe is within a quarter of the shorter segment beside it', () => {
    const quarters = planSegments(400, { parallelism: 4, maxSegmentFrames: 100, minSegmentFrames: 1 });
    const moved = cutsAtKeyframes(quarters, [0, 126, 240, 390], 1);
    expect(moved.map((s) => [s.startFrame, s.endFrame])).toEqual([
      // 100 − 1 = 99: the nearest keyframe, 126, is 27 frames off (more than 25): kept.
      [0, 100],
      // 199: nearest 240, 41 off: kept. 299: nearest 240, 59 off: kept.
      [100, 200],
      [200, 300],
      [300, 400],
    ]);
    expect(cutsAtKeyframes(quarters, [0, 120, 190, 310], 1).map((s) => s.startFrame)).toEqual([0, 121, 191, 311]);
    // No keyframes, or one segment: nothing moves.
    expect(cutsAtKeyframes(quarters, [], 1)).toEqual(quarters);
    expect(cutsAtKeyframes([{ index: 0, startFrame: 0, endFrame: 50 }], [0, 25], 1)).toEqual([
      { index: 0, startFrame: 0, endFrame: 50 },
    ]);
  });

  it('keeps every plan gapless, ordered and near-equal whatever the keyframes', () => {
    for (let seed = 1; seed <= 200; seed++) {
      let state = seed;
      const random = () => {
        state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
        return state / 2_147_483_648;
      };
      const frames = 50 + Math.floor(random() * 20_000);
      const plan = planSegments(frames, {
        parallelism: 1 + Math.floor(random() * 8),
        maxSegmentFrames: 10 + Math.floor(random() * 5000),
        minSegmentFrames: 1 + Math.floor(random() * 300),
      });
      const keyframes = [
        ...new Set(Array.from({ length: Math.floor(random() * 200) }, () => Math.floor(random() * frames))),
      ].sort((a, b) => a - b);
      const moved = cutsAtKeyframes(plan, keyframes, 1 + Math.floor(random() * 3));
      expect(moved[0]!.startFrame).toBe(0);
      expect(moved.at(-1)!.endFrame).toBe(frames);
      for (const [i, segment] of moved.entries()) {
        expect(segment.index).toBe(i);
        if (i > 0) expect(segment.startFrame).toBe(moved[i - 1]!.endFrame);
        const length = plan[i]!.endFrame - plan[i]!.startFrame;
        expect(segment.endFrame - segment.startFrame).toBeGreaterThanOrEqual(Math.ceil(length / 2));
      }
    }
  });
});
