import { describe, expect, it } from 'vitest';
import { type CleanStart, FILE_START } from '../../../adapters/media/clean-start.js';
import { maxLeadFrames, planSegments, withCleanStarts } from './plan.js';

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
