import { describe, expect, it } from 'vitest';
import { fuzzyMatch, rankLabels } from './fuzzy';

const LABELS = [
  'left hand',
  'right hand',
  'left hind paw',
  'right hind paw',
  'head',
  'whole body',
  'tail',
  'Left Hip',
  'lash',
  'twitch',
];

describe('fuzzyMatch', () => {
  it('finds word initials: "lh" is "left hand"', () => {
    const match = fuzzyMatch('lh', 'left hand');
    expect(match).not.toBeNull();
    expect(match!.positions).toEqual([0, 5]);
  });

  it('needs every letter, in order', () => {
    expect(fuzzyMatch('hl', 'left hand')).toBeNull();
    expect(fuzzyMatch('lhx', 'left hand')).toBeNull();
    expect(fuzzyMatch('left hands', 'left hand')).toBeNull();
    expect(fuzzyMatch('LH', 'left hand')).not.toBeNull();
  });

  it('prefers word starts and runs over scattered letters', () => {
    // "lh" in "lash" is l…h (a gap, no word start); in "left hand" both letters start words.
    expect(fuzzyMatch('lh', 'left hand')!.score).toBeGreaterThan(fuzzyMatch('lh', 'lash')!.score);
    expect(fuzzyMatch('hand', 'right hand')!.score).toBeGreaterThan(fuzzyMatch('hand', 'hazard band')!.score);
  });

  it('ranks an exact label and a prefix first', () => {
    expect(rankLabels('tail', ['retail', 'tail light', 'tail'])[0]!.label).toBe('tail');
    expect(rankLabels('tw', ['between', 'twitch'])[0]!.label).toBe('twitch');
  });

  it('matches an empty query to everything, positions empty', () => {
    expect(fuzzyMatch('', 'tail')).toEqual({ score: 0, positions: [] });
    expect(fuzzyMatch('   ', 'tail')).toEqual({ score: 0, positions: [] });
  });

  it('treats camel case as word starts', () => {
    expect(fuzzyMatch('lh', 'leftHand')!.positions).toEqual([0, 4]);
  });
});

describe('rankLabels', () => {
  it('puts "left hand" at the top for "lh", above scattered and longer l…h labels', () => {
    const ranked = rankLabels('lh', LABELS).map((r) => r.label);
    // "Left Hip" is as good a match (both initials) and shorter.
    expect(ranked.slice(0, 2).sort()).toEqual(['Left Hip', 'left hand']);
    expect(ranked.indexOf('left hand')).toBeLessThan(ranked.indexOf('left hind paw'));
    expect(ranked.indexOf('left hand')).toBeLessThan(ranked.indexOf('lash'));
    expect(ranked).toEqual(expect.arrayContaining(['left hind paw', 'Left Hip', 'lash']));
    expect(ranked).not.toContain('right hand');
    expect(ranked).not.toContain('tail');
  });

  it('narrows as letters are typed', () => {
    expect(rankLabels('rhp', LABELS).map((r) => r.label)).toEqual(['right hind paw']);
    expect(rankLabels('lhp', LABELS).map((r) => r.label)[0]).toBe('left hind paw');
  });

  it('lists every label, shortest first, for an empty query, and honours the limit', () => {
    const all = rankLabels('', LABELS);
    expect(all).toHaveLength(LABELS.length);
    expect(all[0]!.label).toBe('head');
    expect(rankLabels('', LABELS, 3)).toHaveLength(3);
  });

  it('ranks hundreds of labels and keeps the best 50', () => {
    const many = Array.from({ length: 500 }, (_, i) => `behaviour ${i} of the left front paw`);
    const ranked = rankLabels('lfp', many);
    expect(ranked).toHaveLength(50);
    expect(ranked[0]!.match.positions).toHaveLength(3);
  });
});
