import { describe, expect, it } from 'vitest';
import {
  clampView,
  follow,
  formatTick,
  MAX_FRAME_PX,
  minSpan,
  panBy,
  rulerTicks,
  timeToX,
  wholeVideo,
  xToTime,
  zoomAt,
} from './timeline-view';

const TWELVE_HOURS = 12 * 3600;
const limits = { duration: TWELVE_HOURS, fps: 30, width: 1200 };

describe('zoom and pan', () => {
  it('starts on the whole video and zooms down to frames wide enough to hit', () => {
    let view = wholeVideo(limits);
    expect(view).toEqual({ start: 0, span: TWELVE_HOURS });
    for (let i = 0; i < 60; i++) view = zoomAt(view, 1.5, 3600, limits);
    expect(view.span).toBeCloseTo(minSpan(limits));
    expect((limits.width / view.span) * (1 / limits.fps)).toBeCloseTo(MAX_FRAME_PX);
    // Zoomed out again, never beyond the video.
    for (let i = 0; i < 80; i++) view = zoomAt(view, 1 / 1.5, 3600, limits);
    expect(view).toEqual({ start: 0, span: TWELVE_HOURS });
  });

  it('keeps the anchor under the pointer while zooming', () => {
    const view = { start: 1000, span: 100 };
    const anchor = 1025;
    const before = timeToX(view, 1200, anchor);
    const zoomed = zoomAt(view, 2, anchor, limits);
    expect(zoomed.span).toBe(50);
    expect(timeToX(zoomed, 1200, anchor)).toBeCloseTo(before);
    expect(xToTime(zoomed, 1200, before)).toBeCloseTo(anchor);
  });

  it('pans within the video', () => {
    expect(panBy({ start: 10, span: 100 }, -50, limits)).toEqual({ start: 0, span: 100 });
    expect(panBy({ start: TWELVE_HOURS - 150, span: 100 }, 500, limits)).toEqual({
      start: TWELVE_HOURS - 100,
      span: 100,
    });
    expect(clampView({ start: -5, span: 1e9 }, limits)).toEqual({ start: 0, span: TWELVE_HOURS });
  });

  it('turns a page when the playhead leaves the window', () => {
    const view = { start: 100, span: 50 };
    expect(follow(view, 120, limits)).toBe(view);
    expect(follow(view, 151, limits)).toEqual({ start: 146, span: 50 });
    expect(follow(view, 10, limits)).toEqual({ start: 5, span: 50 });
  });
});

describe('the ruler', () => {
  it('ticks whole frames when zoomed to frames, round times when zoomed out', () => {
    const frames = rulerTicks({ start: 10, span: 1 }, 1200, 30);
    expect(frames.frames).toBe(true);
    expect(frames.step * 30).toBeCloseTo(Math.round(frames.step * 30));
    expect(frames.times[0]).toBeGreaterThanOrEqual(10);
    const hours = rulerTicks(wholeVideo(limits), 1200, 30);
    expect(hours.frames).toBe(false);
    expect(hours.step).toBe(3600);
    expect(hours.times).toHaveLength(13);
  });

  it('labels ticks as h:mm:ss or m:ss, with the frame when needed', () => {
    expect(formatTick(3723, 30, false)).toBe('1:02:03');
    expect(formatTick(63, 30, false)).toBe('1:03');
    expect(formatTick(63 + 7 / 30, 30, true)).toBe('1:03+07f');
    expect(formatTick(150 / 30, 30, true)).toBe('0:05+00f');
  });
});
