import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDuration, formatFps, formatResolution, secondsToHours } from './format';

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
