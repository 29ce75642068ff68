import { describe, expect, it } from 'vitest';
import { containsSummary, emptyTrashWarning, trashNotice } from './trash-text';

const contains = (videos: number, analyses: number, events: number, annotation_tracks: number) => ({
  videos,
  analyses,
  events,
  annotation_tracks,
});

describe('trash wording', () => {
  it('says where deleted things go and for how long', () => {
    expect(trashNotice(30)).toBe('It is moved to the trash for 30 days; restore it from Trash.');
    expect(trashNotice(1, 3)).toBe('They are moved to the trash for 1 day; restore them from Trash.');
  });

  it('counts what an item took along, leaving the item itself out', () => {
    expect(containsSummary({ kind: 'subject', contains: contains(2, 3, 41, 1) })).toBe(
      '2 videos · 3 runs · 41 events · 1 track',
    );
    expect(containsSummary({ kind: 'video', contains: contains(1, 1, 4, 0) })).toBe('1 run · 4 events');
    expect(containsSummary({ kind: 'video', contains: contains(1, 0, 0, 0) })).toBe('');
    expect(containsSummary({ kind: 'analysis', contains: contains(0, 1, 2, 0) })).toBe('2 events');
    expect(containsSummary({ kind: 'annotation_track', contains: contains(0, 0, 0, 1) })).toBe('');
  });

  it('tells how many items an emptied trash purges', () => {
    expect(emptyTrashWarning(1)).toBe('1 item is purged for good, with its files. This cannot be undone.');
    expect(emptyTrashWarning(4)).toMatch(/^4 items are purged for good, with their files/);
  });
});
