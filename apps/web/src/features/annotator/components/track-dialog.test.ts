import { describe, expect, it } from 'vitest';
import { validateTrack } from './track-dialog';

const others = [
  { name: 'Grooming', hotkey: 'g' },
  { name: 'Rearing', hotkey: null },
];

describe('a track form', () => {
  it('needs a name not taken on the video (in any case) and a free one-character key', () => {
    expect(validateTrack('Sniffing', 's', others)).toEqual({});
    expect(validateTrack('  ', '', others)).toEqual({ name: ['A track needs a name.'] });
    expect(validateTrack('grooming', '', others)).toEqual({
      name: ['This video already has a track named "grooming".'],
    });
    expect(validateTrack('Sniffing', 'G', others)).toEqual({
      hotkey: ['The key "g" is already used by the track "Grooming".'],
    });
    expect(validateTrack('Sniffing', ' ', others)).toEqual({});
    expect(validateTrack('Sniffing', '+', others)).toEqual({
      hotkey: ['A hot key is one letter (a–z) or digit (0–9).'],
    });
    expect(validateTrack('x'.repeat(101), '', others)).toEqual({ name: ['A track name has at most 100 characters.'] });
  });
});
