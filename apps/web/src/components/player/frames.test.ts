import { describe, expect, it } from 'vitest';
import {
  clampFrame,
  clipAround,
  clipSeconds,
  frameAt,
  frameCountOf,
  frameStart,
  frameTime,
  nearestFrame,
  snapToFrameStart,
  usableFps,
} from './frames';

describe('frame arithmetic', () => {
  it('seeks to the middle of a frame and reads it back, at common and odd rates', () => {
    for (const fps of [15, 24, 25, 30, 30000 / 1001, 60, 120]) {
      for (const frame of [0, 1, 2, 29, 30, 1799, 107_999, 1_295_999]) {
        expect(frameAt(frameTime(frame, fps), fps), `frame ${frame} at ${fps}`).toBe(frame);
        // The browser reports the start of the shown frame as its mediaTime.
        expect(nearestFrame(frameStart(frame, fps), fps), `frame ${frame} at ${fps}`).toBe(frame);
        // Any instant inside the frame's interval shows it.
        expect(frameAt(frameStart(frame, fps) + 0.99 / fps, fps)).toBe(frame);
      }
    }
  });

  it('never goes before frame 0', () => {
    expect(frameTime(-3, 30)).toBe(0);
    expect(frameAt(-1, 30)).toBe(0);
    expect(nearestFrame(-0.4, 30)).toBe(0);
    expect(snapToFrameStart(-2, 30)).toBe(0);
  });

  it('snaps a dragged time to the start of the nearest frame', () => {
    expect(snapToFrameStart(1.01, 30)).toBeCloseTo(30 / 30, 12);
    expect(snapToFrameStart(1.02, 30)).toBeCloseTo(31 / 30, 12);
    expect(snapToFrameStart(12.3456, 25)).toBeCloseTo(309 / 25, 12);
  });

  it('falls back to 30 fps and to duration × fps frames', () => {
    expect(usableFps(null)).toBe(30);
    expect(usableFps(0)).toBe(30);
    expect(usableFps(Number.NaN)).toBe(30);
    expect(usableFps(59.94)).toBe(59.94);
    expect(frameCountOf(150, 5, 30)).toBe(150);
    expect(frameCountOf(null, 5, 30)).toBe(150);
    expect(frameCountOf(null, null, 30)).toBe(1);
  });

  it('clamps frames to the video', () => {
    expect(clampFrame(-5, 100)).toBe(0);
    expect(clampFrame(100, 100)).toBe(99);
    expect(clampFrame(41.6, 100)).toBe(42);
  });
});

describe('clips', () => {
  it('spans ±0.5 s around the event frame by default, both ends included', () => {
    const clip = clipAround(300, { before: 0.5, after: 0.5 }, 30, 108_000);
    expect(clip).toEqual({ start: 285, end: 316 });
    expect(clipSeconds(clip, 30)).toBeCloseTo(31 / 30, 12);
  });

  it('is cut at the start and the end of the video, keeping the centre inside', () => {
    expect(clipAround(3, { before: 0.5, after: 0.5 }, 30, 150)).toEqual({ start: 0, end: 19 });
    expect(clipAround(148, { before: 0.5, after: 0.5 }, 30, 150)).toEqual({ start: 133, end: 150 });
    expect(clipAround(500, { before: 1, after: 1 }, 30, 150)).toEqual({ start: 119, end: 150 });
  });

  it('is never empty, even with no span or a one-frame video', () => {
    expect(clipAround(10, { before: 0, after: 0 }, 30, 150)).toEqual({ start: 10, end: 11 });
    expect(clipAround(0, { before: 0.5, after: 0.5 }, 30, 1)).toEqual({ start: 0, end: 1 });
    expect(clipAround(10, { before: -1, after: -1 }, 30, 150)).toEqual({ start: 10, end: 11 });
  });

  it('takes uneven spans and rates', () => {
    expect(clipAround(100, { before: 0.25, after: 2 }, 25, 10_000)).toEqual({ start: 94, end: 151 });
    const ntsc = 30000 / 1001;
    const clip = clipAround(1000, { before: 0.5, after: 0.5 }, ntsc, 100_000);
    expect(clip.end - clip.start).toBe(31);
    expect(clip.start).toBeLessThanOrEqual(1000);
    expect(clip.end).toBeGreaterThan(1000);
  });
});
