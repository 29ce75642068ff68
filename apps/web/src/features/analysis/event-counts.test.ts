import { describe, expect, it } from 'vitest';
import type { EventCounts } from './api';
import { eventCountLines, eventCountsShort, runCountsLabel } from './event-counts';

const counts: EventCounts = {
  detected: 104,
  detected_rate_per_min: 3.829,
  kept: 103,
  kept_rate_per_min: 3.793,
  discarded: 1,
  flagged: 1,
  added: 0,
  reviewed: 1,
  unlabelled: 100,
  by_label: { twitch: 2, groom: 1 },
};

describe('event counts in words', () => {
  it('says detected and after review side by side, with the numbers the server gives', () => {
    expect(eventCountsShort(counts)).toBe('104 detected · 103 kept');
    expect(eventCountLines(counts).map((line) => [line.label, line.value])).toEqual([
      ['Detected', '104 events · 3.829 per minute'],
      ['After review', '103 kept · 3.793 per minute'],
      ['Review', '1 discarded · 1 flagged · 0 added by hand'],
      ['Kept by label', 'groom 1 · twitch 2 · unlabelled 100'],
    ]);
  });

  it('labels a run in a menu by its counts, or by its event count before it finished', () => {
    expect(runCountsLabel({ event_counts: counts, event_count: 104 })).toBe('104 detected · 103 kept');
    expect(runCountsLabel({ event_counts: null, event_count: 1 })).toBe('1 event');
    expect(runCountsLabel({ event_counts: null, event_count: null })).toBe('0 events');
  });
});
