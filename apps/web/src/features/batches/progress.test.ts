import { describe, expect, it } from 'vitest';
import { batchPercent, countsLine, retryLabel, timeLeft } from './progress';

const counts = { videos: 40, queued: 3, running: 4, succeeded: 29, failed: 2, revoked: 2 };

describe('a batch’s progress in words', () => {
  it('counts what finished, then what failed, was stopped, runs and waits', () => {
    expect(countsLine(counts)).toBe('33 of 40 finished · 2 failed · 2 stopped · 4 running · 3 queued');
    expect(countsLine({ videos: 2, queued: 0, running: 0, succeeded: 2, failed: 0, revoked: 0 })).toBe(
      '2 of 2 finished',
    );
  });

  it('never shows 100 % before the batch is finished', () => {
    expect(batchPercent({ status: 'running', progress: 0.9999 })).toBe(99);
    expect(batchPercent({ status: 'running', progress: 0.426 })).toBe(42);
    expect(batchPercent({ status: 'finished', progress: 0.5 })).toBe(100);
  });

  it('says the time left while it runs, and the videos a retry takes', () => {
    expect(timeLeft({ status: 'running', eta_s: 199.2 })).toBe('about 03:20 left');
    expect(timeLeft({ status: 'running', eta_s: null })).toBeNull();
    expect(timeLeft({ status: 'finished', eta_s: 10 })).toBeNull();
    expect(retryLabel(counts)).toBe('Retry 4 failed videos');
  });
});
