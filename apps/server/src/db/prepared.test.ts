import { describe, expect, it } from 'vitest';
import { isoTimestamp } from './prepared.js';

describe('isoTimestamp', () => {
  it('writes PostgreSQL timestamptz text as Date#toISOString does, cutting microseconds as Date does', () => {
    for (const text of [
      '2026-11-25 20:48:09.123456+00',
      '2026-11-25 20:48:09.999999+00',
      '2026-11-25 20:48:09.1+00',
      '2026-11-25 20:48:09.12+00',
      '2026-11-25 20:48:09.000001+00',
      '2026-11-25 20:48:09+00',
      '1969-12-31 23:59:59.9995+00',
      '0999-01-01 00:00:00.5+00',
      // Another session time zone, and a year past 9999: through a Date.
      '2026-11-25 21:48:09.123456+01',
      '2026-11-25 15:18:09.5-05:30',
      '12026-11-25 20:48:09.25+00',
    ]) {
      expect(isoTimestamp(text), text).toBe(new Date(text).toISOString());
    }
    expect(isoTimestamp('2026-11-25 20:48:09.123456+00')).toBe('2026-11-25T20:48:09.123Z');
    expect(isoTimestamp('2026-11-25 21:48:09.7+01')).toBe('2026-11-25T20:48:09.700Z');
  });
});
