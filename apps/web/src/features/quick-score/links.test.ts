import { describe, expect, it } from 'vitest';
import { quickScorePath, readQuickScoreSearch } from './links';

describe('Quick Score links', () => {
  it('names subject, video and run with the Movement Detector’s keys', () => {
    expect(quickScorePath('p', { subject: 's', video: 'v', run: 'r' })).toBe(
      '/projects/p/quick-score?subject=s&video=v&run=r',
    );
    expect(quickScorePath('p')).toBe('/projects/p/quick-score');
    // A run means nothing without its video, a video nothing without its subject.
    expect(quickScorePath('p', { subject: 's', run: 'r' })).toBe('/projects/p/quick-score?subject=s');
    expect(quickScorePath('p', { video: 'v' })).toBe('/projects/p/quick-score');
  });

  it('reads what the URL names', () => {
    expect(readQuickScoreSearch(new URLSearchParams('subject=s&video=v&run=r'))).toEqual({
      subject: 's',
      video: 'v',
      run: 'r',
    });
    expect(readQuickScoreSearch(new URLSearchParams('video=v&run=r'))).toEqual({
      subject: null,
      video: null,
      run: null,
    });
  });
});
