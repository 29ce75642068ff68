import { describe, expect, it } from 'vitest';
import type { AgreementReport } from './api';
import { clipFor, disagreementsOf } from './disagreements';

const report = (
  parts: Partial<AgreementReport['events']>,
  stretches: NonNullable<AgreementReport['intervals']>['disagreements'] | null,
) =>
  ({
    events: {
      tp: 0,
      fp: 0,
      fn: 0,
      precision: null,
      recall: null,
      f1: null,
      onset_error: {},
      pairs: [],
      missed: [],
      extra: [],
      ...parts,
    },
    intervals: stretches ? { disagreements: stretches } : null,
  }) as unknown as AgreementReport;

describe('disagreements', () => {
  it('list missed and extra events and one-sided stretches in time order', () => {
    const items = disagreementsOf(
      report({ missed: [4.2, 1], extra: [3.5] }, [
        { start_s: 1, end_s: 1.1, side: 'reference_only' },
        { start_s: 2.4, end_s: 2.5, side: 'candidate_only' },
      ]),
      30,
      150,
    );
    expect(items.map((d) => [d.kind, d.start])).toEqual([
      ['missed', 1],
      ['reference_only', 1],
      ['candidate_only', 2.4],
      ['extra', 3.5],
      ['missed', 4.2],
    ]);
  });

  it('give each a clip: ±0.5 s around an event, the stretch with 0.5 s either side, cut to the video', () => {
    expect(clipFor(2, null, 30, 300)).toEqual({ start: 45, end: 76 });
    expect(clipFor(0.1, null, 30, 300)).toEqual({ start: 0, end: 19 });
    expect(clipFor(9.9, null, 30, 300)).toEqual({ start: 282, end: 300 });
    expect(clipFor(1, 2, 30, 300)).toEqual({ start: 15, end: 76 });
    // A long stretch plays its first 10 s.
    expect(clipFor(10, 100, 30, 10_000)).toEqual({ start: 285, end: 616 });
  });
});
