import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRange } from './video.range.js';

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'full' }],
    ['bytes=0-99', { kind: 'partial', start: 0, end: 99 }],
    ['bytes=900-', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=900-5000', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-100', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-5000', { kind: 'partial', start: 0, end: 999 }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=500-100', { kind: 'full' }],
    ['bytes=0-1,5-9', { kind: 'full' }],
    ['items=0-10', { kind: 'full' }],
    ['bytes=-', { kind: 'full' }],
  ])('%s of 1000 bytes → %o', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });

  it('never answers a range outside the file', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(20_000), fc.option(fc.nat(20_000)), (size, start, end) => {
        const result = parseRange(`bytes=${start}-${end ?? ''}`, size);
        if (result.kind === 'partial') {
          expect(result.start).toBeGreaterThanOrEqual(0);
          expect(result.end).toBeLessThan(size);
          expect(result.start).toBeLessThanOrEqual(result.end);
        } else if (result.kind === 'unsatisfiable') {
          expect(start).toBeGreaterThanOrEqual(size);
        }
      }),
    );
  });
});
