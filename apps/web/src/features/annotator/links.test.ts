import { describe, expect, it } from 'vitest';
import { annotatorPath, readAnnotatorSearch } from './links';

describe('links into the Annotator', () => {
  it('names the subject and video, the video only with its subject', () => {
    expect(annotatorPath('p', { subject: 's', video: 'v' })).toBe('/projects/p/annotator?subject=s&video=v');
    expect(annotatorPath('p', { video: 'v' })).toBe('/projects/p/annotator');
    expect(readAnnotatorSearch(new URLSearchParams('subject=s&video=v'))).toEqual({ subject: 's', video: 'v' });
    expect(readAnnotatorSearch(new URLSearchParams('video=v'))).toEqual({ subject: null, video: null });
  });
});
