import { describe, expect, it } from 'vitest';
import { initialMode, othersWhoScored, type Scorers } from './api';

const ADA = { id: 1, display_name: 'Ada Lovelace' };
const BOB = { id: 2, display_name: 'Bob Marley' };
const list = (extra: Partial<Scorers> = {}): Scorers => ({
  analysis_uuid: 'run',
  scorers: [],
  consensus_reviewers: [],
  mine: false,
  ...extra,
});

describe('the scoring a run opens in (ADR 014)', () => {
  it('asks only someone who has not scored it yet when someone else has', () => {
    expect(initialMode(list(), BOB.id, false)).toBe('consensus');
    const adaDecided = list({ consensus_reviewers: [{ user: ADA, decided: 3 }] });
    expect(initialMode(adaDecided, BOB.id, false)).toBe('ask');
    expect(initialMode(adaDecided, ADA.id, false)).toBe('consensus');
    expect(initialMode(adaDecided, BOB.id, true)).toBe('consensus');
    const adaBlind = list({ scorers: [{ user: ADA, started_at: '', decided: 0 }] });
    expect(initialMode(adaBlind, BOB.id, false)).toBe('ask');
    expect(initialMode({ ...adaBlind, mine: true }, ADA.id, false)).toBe('mine');
    expect(
      initialMode(
        list({
          consensus_reviewers: [
            { user: ADA, decided: 1 },
            { user: BOB, decided: 1 },
          ],
        }),
        BOB.id,
        false,
      ),
    ).toBe('consensus');
  });

  it('names the others and their work, never the caller', () => {
    const both = list({
      consensus_reviewers: [{ user: ADA, decided: 1 }],
      scorers: [
        { user: BOB, started_at: '', decided: 12 },
        { user: ADA, started_at: '', decided: 0 },
      ],
    });
    expect(othersWhoScored(both, BOB.id)).toEqual([
      'Ada Lovelace (1 event of the consensus)',
      'Ada Lovelace (0 events, blind)',
    ]);
    expect(othersWhoScored(both, 3)).toHaveLength(3);
  });
});
