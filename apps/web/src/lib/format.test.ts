import { describe, expect, it } from 'vitest';
import {
  countOf,
  formatBytes,
  formatDate,
  formatDuration,
  formatFps,
  formatResolution,
  formatTime,
  formatTimeAndFrame,
  formatTimecode,
  secondsToHours,
} from './format';

describe('formatBytes', () => {
  it('shows 0 GB for zero', () => {
    expect(formatBytes(0)).toBe('0 GB');
    expect(formatBytes(null)).toBe('0 GB');
  });
  it('steps by 1024 through B, KB, MB, GB, TB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 ** 2)).toBe('1 MB');
    expect(formatBytes(5.25 * 1024 ** 3)).toBe('5.3 GB');
    expect(formatBytes(2 * 1024 ** 4)).toBe('2 TB');
    expect(formatBytes(3 * 1024 ** 5)).toBe('3072 TB');
  });
});

describe('secondsToHours', () => {
  it('divides by 3600', () => {
    expect(secondsToHours(3600)).toBe(1);
    expect(secondsToHours(5400)).toBe(1.5);
    expect(secondsToHours(0)).toBe(0);
  });
});

describe('formatDuration', () => {
  it('shows mm:ss', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(4.04)).toBe('00:04');
    expect(formatDuration(65.9)).toBe('01:05');
    expect(formatDuration(3599)).toBe('59:59');
  });
  it('keeps counting minutes past an hour', () => {
    expect(formatDuration(4503)).toBe('75:03');
  });
  it('treats missing or invalid values as zero', () => {
    expect(formatDuration(null)).toBe('00:00');
    expect(formatDuration(Number.NaN)).toBe('00:00');
    expect(formatDuration(-3)).toBe('00:00');
  });
});

describe('formatDate', () => {
  it('uses the en-US long format with hour and minute', () => {
    const date = new Date(2026, 2, 5, 14, 7);
    expect(formatDate(date)).toMatch(/^March 5, 2026(,| at) 2:07\sPM$/);
    expect(formatDate(date.toISOString())).toBe(formatDate(date));
  });
  it('shows a dash for missing or invalid dates', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
  });
});

describe('video facts', () => {
  it('formats frame rate and resolution', () => {
    expect(formatFps(29.97003)).toBe('29.97 fps');
    expect(formatFps(30)).toBe('30 fps');
    expect(formatFps(null)).toBe('—');
    expect(formatResolution(1920, 1080)).toBe('1920×1080');
    expect(formatResolution(null, 1080)).toBe('—');
  });
});

describe('formatTime', () => {
  it('shows h:mm:ss.mmm', () => {
    expect(formatTime(0)).toBe('0:00:00.000');
    expect(formatTime(1)).toBe('0:00:01.000');
    expect(formatTime(77)).toBe('0:01:17.000');
    expect(formatTime(776.659)).toBe('0:12:56.659');
    expect(formatTime(3600)).toBe('1:00:00.000');
    expect(formatTime(3661.5)).toBe('1:01:01.500');
    expect(formatTime(12 * 3600 - 0.001)).toBe('11:59:59.999');
  });
  it('truncates to the millisecond, so a time shows the second it is in', () => {
    expect(formatTime(0.9999)).toBe('0:00:00.999');
    expect(formatTime(59.9996)).toBe('0:00:59.999');
    expect(formatTime(1 / 3)).toBe('0:00:00.333');
    expect(formatTime(2 / 3)).toBe('0:00:00.666');
  });
  it('absorbs floating-point noise instead of truncating a millisecond away', () => {
    expect(formatTime(0.1 + 0.2)).toBe('0:00:00.300');
    expect(formatTime(4.35)).toBe('0:00:04.350');
    expect(formatTime(150 / 30)).toBe('0:00:05.000');
    expect(formatTime(149 / 30 + 1 / 30)).toBe('0:00:05.000');
    expect(formatTime(1.005)).toBe('0:00:01.005');
  });
  it('marks negative times and dashes missing ones', () => {
    expect(formatTime(-1.5)).toBe('−0:00:01.500');
    expect(formatTime(null)).toBe('—');
    expect(formatTime(Number.NaN)).toBe('—');
  });
  it('names the frame when the frame rate is known', () => {
    expect(formatTimeAndFrame(5, 30)).toBe('0:00:05.000 · frame 150');
    expect(formatTimeAndFrame(776.659, 30)).toBe('0:12:56.659 · frame 23300');
    expect(formatTimeAndFrame(5, null)).toBe('0:00:05.000');
  });
});

describe('formatTimecode', () => {
  it('gives the whole second and the frame within it, padded to the frame rate', () => {
    expect(formatTimecode(0, 30)).toBe('0:00+00f');
    expect(formatTimecode(29, 30)).toBe('0:00+29f');
    expect(formatTimecode(30, 30)).toBe('0:01+00f');
    expect(formatTimecode(150, 30)).toBe('0:05+00f');
    expect(formatTimecode(157, 30)).toBe('0:05+07f');
    expect(formatTimecode(1897, 30)).toBe('1:03+07f');
    expect(formatTimecode(3723 * 30, 30)).toBe('1:02:03+00f');
    expect(formatTimecode(7, 10)).toBe('0:00+7f');
    expect(formatTimecode(119, 120)).toBe('0:00+119f');
  });
  it('never lets the frame part reach the frame rate', () => {
    const reached: string[] = [];
    for (const fps of [24, 25, 29.97, 30, 30.02, 59.94, 60]) {
      for (let frame = 0; frame < 20_000; frame++) {
        const code = formatTimecode(frame, fps);
        if (!(Number(/\+(\d+)f$/.exec(code)?.[1]) < fps)) reached.push(`${frame} at ${fps} fps: ${code}`);
      }
    }
    expect(reached).toEqual([]);
  });
  it('puts a frame in the second it starts in at a fractional frame rate', () => {
    // 29.97 fps: frame 30 starts at 1.001 s, the first frame of second 1; frame 29 at 0.968 s.
    expect(formatTimecode(29, 29.97)).toBe('0:00+29f');
    expect(formatTimecode(30, 29.97)).toBe('0:01+00f');
    // 30.02 fps: frame 150 starts at 4.9967 s (second 4, whose first frame is 121).
    expect(formatTimecode(150, 30.02)).toBe('0:04+29f');
  });
});

describe('countOf', () => {
  it('is singular for exactly one', () => {
    expect(countOf(1, 'bout')).toBe('1 bout');
    expect(countOf(0, 'bout')).toBe('0 bouts');
    expect(countOf(2, 'bout')).toBe('2 bouts');
    expect(countOf(1, 'analysis', 'analyses')).toBe('1 analysis');
    expect(countOf(1200, 'event')).toBe('1,200 events');
  });
});
