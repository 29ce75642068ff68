import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Rect } from './intensity.js';
import {
  bypassCursor,
  decodeCrop,
  firstFrameAtOrAfter,
  frameTime,
  planSegments,
  roiCursor,
  roiInCrop,
  type TimedRoi,
} from './plan.js';

const runs = { numRuns: 200 };
const fpsArbitrary = fc.constantFrom(1, 10, 24, 25, 29.97, 30000 / 1001, 30, 50, 59.94, 60, 120);

/**
 * A strictly increasing run of frames, the order cursors must be asked in: every frame of [0, frames) kept
 * with a random density, so runs are dense enough to hit range boundaries and still skip frames.
 */
const increasingFrames = (frames: number) =>
  fc
    .record({
      density: fc.double({ min: 0.2, max: 1, noNaN: true }),
      draws: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: frames, maxLength: frames }),
    })
    .map(({ density, draws }) => draws.flatMap((draw, frame) => (draw < density ? [frame] : [])));

describe('firstFrameAtOrAfter', () => {
  it('lands exactly on a frame despite floating point', () => {
    expect(firstFrameAtOrAfter(0.1, 30)).toBe(3);
    expect(firstFrameAtOrAfter(1 / 3, 30)).toBe(10);
    expect(firstFrameAtOrAfter(0.7, 10)).toBe(7);
    expect(firstFrameAtOrAfter(1.1, 10)).toBe(11);
    expect(firstFrameAtOrAfter(100 / 29.97, 29.97)).toBe(100);
  });

  it('rounds times between frames up, and clamps before 0 to frame 0', () => {
    expect(firstFrameAtOrAfter(0, 30)).toBe(0);
    expect(firstFrameAtOrAfter(0.01, 30)).toBe(1);
    expect(firstFrameAtOrAfter(0.1001, 30)).toBe(4);
    expect(firstFrameAtOrAfter(-2, 30)).toBe(0);
  });

  it('maps each frame time to its frame, and a time just after it to the next frame', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fpsArbitrary, (frame, fps) => {
        expect(firstFrameAtOrAfter(frameTime(frame, fps), fps)).toBe(frame);
        expect(firstFrameAtOrAfter((frame + 0.01) / fps, fps)).toBe(frame + 1);
        expect(firstFrameAtOrAfter((frame + 0.99) / fps, fps)).toBe(frame + 1);
      }),
      runs,
    );
  });

  it('is the smallest frame whose time is at or after the given time (beyond the tolerance)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 10_000, noNaN: true }), fpsArbitrary, (seconds, fps) => {
        const frame = firstFrameAtOrAfter(seconds, fps);
        // Within a millionth of a frame counts as "at"; any looser would be a visible off-by-one.
        expect(frame / fps).toBeGreaterThanOrEqual(seconds - 1e-6 / fps);
        if (frame > 0) expect((frame - 1) / fps).toBeLessThan(seconds);
      }),
      runs,
    );
  });
});

/**
 * Times for cursor boundaries at a frame rate: any time, or exactly a frame's time (where floating point bites).
 * Up to 5 s, so the frames asked (up to 650) reach past them at every rate.
 */
const boundaryTime = (fps: number) =>
  fc.oneof(
    fc.double({ min: 0, max: 5, noNaN: true }),
    fc.integer({ min: 0, max: Math.floor(5 * fps) }).map((frame) => frame / fps),
  );

/** A frame rate and ROIs starting at 0 s (as validated), then at strictly increasing times. */
const timedRoisArbitrary = fpsArbitrary.chain((fps) =>
  fc.record({
    fps: fc.constant(fps),
    rois: fc
      .uniqueArray(boundaryTime(fps), { maxLength: 5 })
      .map((starts) =>
        [0, ...starts.filter((t) => t > 0).sort((a, b) => a - b)].map(
          (start_s, i): TimedRoi => ({ start_s, x: i, y: i, width: 10 + i, height: 10 + i }),
        ),
      ),
  }),
);

describe('roiCursor', () => {
  const roi = (start_s: number): TimedRoi => ({ start_s, x: 0, y: 0, width: 1, height: 1 });

  it('reports -1 for every frame without ROIs', () => {
    const cursor = roiCursor([], 30);
    expect([0, 1, 5, 1000].map(cursor)).toEqual([-1, -1, -1, -1]);
  });

  it('switches to ROI k at the first frame at or after its start', () => {
    const cursor = roiCursor([roi(0), roi(0.1), roi(1 / 3)], 30);
    expect([0, 1, 2, 3, 4, 9, 10, 11, 500].map(cursor)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
  });

  it('switches to the last of several ROIs starting within one frame', () => {
    // Both 0.01 s and 0.02 s start at frame 1 at 30 fps: the later ROI wins from frame 1 on.
    const cursor = roiCursor([roi(0), roi(0.01), roi(0.02)], 30);
    expect([0, 1, 2].map(cursor)).toEqual([0, 2, 2]);
  });

  it('equals a per-frame search for the last ROI started, for frames asked in increasing order', () => {
    fc.assert(
      fc.property(timedRoisArbitrary, increasingFrames(650), ({ rois, fps }, frames) => {
        const cursor = roiCursor(rois, fps);
        const wrong = frames.filter((frame) => {
          // A frame within a millionth of a frame of the start counts as at it.
          let expected = 0;
          for (let k = 0; k < rois.length; k++) if (rois[k]!.start_s * fps - 1e-6 <= frame) expected = k;
          return cursor(frame) !== expected;
        });
        expect(wrong).toEqual([]);
      }),
      runs,
    );
  });
});

/** A frame rate and sorted, non-overlapping bypass ranges in seconds (adjacent ranges may touch). */
const bypassRangesArbitrary = fpsArbitrary.chain((fps) =>
  fc.record({
    fps: fc.constant(fps),
    ranges: fc.array(boundaryTime(fps), { maxLength: 10 }).map((edges) => {
      const sorted = edges.sort((a, b) => a - b);
      const ranges: [number, number][] = [];
      for (let i = 0; i + 1 < sorted.length; i += 2) ranges.push([sorted[i]!, sorted[i + 1]!]);
      return ranges;
    }),
  }),
);

describe('bypassCursor', () => {
  it('is half-open: the frame at the start is bypassed, the frame at the end is analysed', () => {
    const cursor = bypassCursor(
      [
        [0.1, 0.2],
        [1 / 3, 0.5],
      ],
      30,
    );
    const bypassed = Array.from({ length: 20 }, (_, frame) => frame).filter(cursor);
    expect(bypassed).toEqual([3, 4, 5, 10, 11, 12, 13, 14]);
  });

  it('bypasses nothing without ranges', () => {
    const cursor = bypassCursor([], 25);
    expect([0, 1, 100].some(cursor)).toBe(false);
  });

  it('handles touching ranges and ranges shorter than a frame', () => {
    // [0.1, 0.2) and [0.2, 0.3) touch; [0.31, 0.32) holds no frame at 30 fps (frame 10 is at 0.333 s).
    const cursor = bypassCursor(
      [
        [0.1, 0.2],
        [0.2, 0.3],
        [0.31, 0.32],
      ],
      30,
    );
    const bypassed = Array.from({ length: 15 }, (_, frame) => frame).filter(cursor);
    expect(bypassed).toEqual([3, 4, 5, 6, 7, 8]);
  });

  it('equals a per-frame check against every range, for frames asked in increasing order', () => {
    fc.assert(
      fc.property(bypassRangesArbitrary, increasingFrames(650), ({ ranges, fps }, frames) => {
        const cursor = bypassCursor(ranges, fps);
        const wrong = frames.filter((frame) => {
          // Frame times within a millionth of a frame of a bound count as at it.
          let expected = false;
          for (const [start, end] of ranges) {
            if (start * fps - 1e-6 <= frame && frame < end * fps - 1e-6) expected = true;
          }
          return cursor(frame) !== expected;
        });
        expect(wrong).toEqual([]);
      }),
      runs,
    );
  });
});

const pictureArbitrary = fc.record({ width: fc.integer({ min: 1, max: 80 }), height: fc.integer({ min: 1, max: 80 }) });
const roiInPicture = (width: number, height: number) =>
  fc
    .record({ x: fc.integer({ min: 0, max: width - 1 }), y: fc.integer({ min: 0, max: height - 1 }) })
    .chain(({ x, y }) =>
      fc.record({
        x: fc.constant(x),
        y: fc.constant(y),
        width: fc.integer({ min: 1, max: width - x }),
        height: fc.integer({ min: 1, max: height - y }),
      }),
    );
const picturesWithRois = pictureArbitrary.chain(({ width, height }) =>
  fc.record({
    width: fc.constant(width),
    height: fc.constant(height),
    rois: fc.array(roiInPicture(width, height), { maxLength: 5 }),
  }),
);

const contains = (outer: Rect, inner: Rect) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

describe('decodeCrop and roiInCrop', () => {
  it('is the whole picture without ROIs', () => {
    expect(decodeCrop([], 640, 480)).toEqual({ x: 0, y: 0, width: 640, height: 480 });
  });

  it('grows the bounding box by one pixel and clips it to the picture', () => {
    const rois = [
      { x: 10, y: 20, width: 5, height: 5 },
      { x: 30, y: 22, width: 10, height: 40 },
    ];
    expect(decodeCrop(rois, 640, 480)).toEqual({ x: 9, y: 19, width: 32, height: 44 });
    expect(decodeCrop([{ x: 0, y: 0, width: 640, height: 480 }], 640, 480)).toEqual({
      x: 0,
      y: 0,
      width: 640,
      height: 480,
    });
    expect(decodeCrop([{ x: 0, y: 5, width: 3, height: 475 }], 640, 480)).toEqual({
      x: 0,
      y: 4,
      width: 4,
      height: 476,
    });
  });

  it('equals the clipped, grown bounding box and contains every ROI with a one-pixel margin where it fits', () => {
    fc.assert(
      fc.property(picturesWithRois, ({ width, height, rois }) => {
        const crop = decodeCrop(rois, width, height);
        expect(contains({ x: 0, y: 0, width, height }, crop)).toBe(true);
        if (rois.length === 0) {
          expect(crop).toEqual({ x: 0, y: 0, width, height });
          return;
        }
        // Naive: the picture pixels within one pixel of some ROI, then their bounding box.
        let left = Number.POSITIVE_INFINITY;
        let top = Number.POSITIVE_INFINITY;
        let right = Number.NEGATIVE_INFINITY;
        let bottom = Number.NEGATIVE_INFINITY;
        for (const roi of rois) {
          for (let y = roi.y - 1; y <= roi.y + roi.height; y++) {
            for (let x = roi.x - 1; x <= roi.x + roi.width; x++) {
              if (x < 0 || y < 0 || x >= width || y >= height) continue;
              left = Math.min(left, x);
              top = Math.min(top, y);
              right = Math.max(right, x);
              bottom = Math.max(bottom, y);
            }
          }
        }
        expect(crop).toEqual({ x: left, y: top, width: right - left + 1, height: bottom - top + 1 });
        for (const roi of rois) {
          expect(contains(crop, roi)).toBe(true);
          const grown = {
            x: Math.max(0, roi.x - 1),
            y: Math.max(0, roi.y - 1),
            width: Math.min(width, roi.x + roi.width + 1) - Math.max(0, roi.x - 1),
            height: Math.min(height, roi.y + roi.height + 1) - Math.max(0, roi.y - 1),
          };
          expect(contains(crop, grown)).toBe(true);
        }
      }),
      runs,
    );
  });

  it('roiInCrop shifts an ROI into crop coordinates, inside the crop; no ROI means the whole crop', () => {
    fc.assert(
      fc.property(picturesWithRois, ({ width, height, rois }) => {
        const crop = decodeCrop(rois, width, height);
        expect(roiInCrop(undefined, crop)).toEqual({ x: 0, y: 0, width: crop.width, height: crop.height });
        for (const roi of rois) {
          const inCrop = roiInCrop(roi, crop);
          expect(inCrop).toEqual({ x: roi.x - crop.x, y: roi.y - crop.y, width: roi.width, height: roi.height });
          expect(contains({ x: 0, y: 0, width: crop.width, height: crop.height }, inCrop)).toBe(true);
        }
      }),
      runs,
    );
  });
});

describe('planSegments', () => {
  it('gives one segment per worker for a short video and cuts a long one into bounded segments', () => {
    expect(planSegments(100, { parallelism: 4, maxSegmentFrames: 1000, minSegmentFrames: 10 })).toEqual([
      { index: 0, startFrame: 0, endFrame: 25 },
      { index: 1, startFrame: 25, endFrame: 50 },
      { index: 2, startFrame: 50, endFrame: 75 },
      { index: 3, startFrame: 75, endFrame: 100 },
    ]);
    // 10 000 frames, at most 900 per segment: 12 segments (a multiple of 4) of 833–834 frames.
    const long = planSegments(10_000, { parallelism: 4, maxSegmentFrames: 900, minSegmentFrames: 300 });
    expect(long).toHaveLength(12);
    expect(long.every((s) => s.endFrame - s.startFrame >= 833 && s.endFrame - s.startFrame <= 834)).toBe(true);
  });

  it('makes fewer segments than workers when the video is shorter than a minimum segment each', () => {
    const segments = planSegments(25, { parallelism: 8, maxSegmentFrames: 1000, minSegmentFrames: 10 });
    expect(segments.map((s) => [s.startFrame, s.endFrame])).toEqual([
      [0, 12],
      [12, 25],
    ]);
    expect(planSegments(5, { parallelism: 8, maxSegmentFrames: 1000, minSegmentFrames: 10 })).toEqual([
      { index: 0, startFrame: 0, endFrame: 5 },
    ]);
  });

  const optionsArbitrary = fc
    .record({
      parallelism: fc.integer({ min: 1, max: 16 }),
      minSegmentFrames: fc.integer({ min: 1, max: 500 }),
      maxSegmentFrames: fc.integer({ min: 1, max: 5000 }),
    })
    .map((options) => ({ ...options, maxSegmentFrames: Math.max(options.maxSegmentFrames, options.minSegmentFrames) }));
  const frameCountArbitrary = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 500_000 }));

  it('covers [0, frameCount) with contiguous, increasing, non-empty segments', () => {
    fc.assert(
      fc.property(frameCountArbitrary, optionsArbitrary, (frameCount, options) => {
        const segments = planSegments(frameCount, options);
        expect(segments.length).toBeGreaterThanOrEqual(1);
        // Walk the segments and report the first one out of place (one expect: there can be thousands).
        let expectedStart = 0;
        const misplaced = segments.find((segment, i) => {
          const wrong =
            segment.index !== i || segment.startFrame !== expectedStart || segment.endFrame <= expectedStart;
          expectedStart = segment.endFrame;
          return wrong;
        });
        expect(misplaced).toBeUndefined();
        expect(expectedStart).toBe(frameCount);
      }),
      runs,
    );
  });

  it('gives every worker a segment when the video holds a minimum segment for each', () => {
    fc.assert(
      fc.property(frameCountArbitrary, optionsArbitrary, (frameCount, options) => {
        fc.pre(frameCount >= options.parallelism * options.minSegmentFrames);
        expect(planSegments(frameCount, options).length).toBeGreaterThanOrEqual(options.parallelism);
      }),
      runs,
    );
  });

  it('makes a multiple of the parallelism when the video holds that many minimum segments and max ≥ 2 × min', () => {
    // With max < 2 × min it can be impossible: 100 frames in segments of 10–12 frames allow 9 or 10 segments only,
    // neither a multiple of 4 workers.
    const roomy = optionsArbitrary.map((options) => ({
      ...options,
      maxSegmentFrames: Math.max(options.maxSegmentFrames, 2 * options.minSegmentFrames),
    }));
    fc.assert(
      fc.property(frameCountArbitrary, roomy, (frameCount, options) => {
        fc.pre(frameCount >= options.parallelism * options.minSegmentFrames);
        expect(planSegments(frameCount, options).length % options.parallelism).toBe(0);
      }),
      runs,
    );
  });

  it('keeps segments within [min, max] frames when the bounds allow it', () => {
    fc.assert(
      fc.property(
        frameCountArbitrary,
        optionsArbitrary,
        (frameCount, { parallelism, minSegmentFrames, maxSegmentFrames }) => {
          const segments = planSegments(frameCount, { parallelism, minSegmentFrames, maxSegmentFrames });
          // A loop, not Math.max(...lengths): a plan can hold more segments than the call stack takes arguments.
          let longest = 0;
          let shortest = Number.POSITIVE_INFINITY;
          for (const segment of segments) {
            longest = Math.max(longest, segment.endFrame - segment.startFrame);
            shortest = Math.min(shortest, segment.endFrame - segment.startFrame);
          }
          // Some count of segments fits both bounds: at least ⌈frames / max⌉ and at most ⌊frames / min⌋.
          if (Math.ceil(frameCount / maxSegmentFrames) <= Math.floor(frameCount / minSegmentFrames)) {
            expect(longest).toBeLessThanOrEqual(maxSegmentFrames);
          }
          if (frameCount >= minSegmentFrames) expect(shortest).toBeGreaterThanOrEqual(minSegmentFrames);
        },
      ),
      runs,
    );
  });
});
