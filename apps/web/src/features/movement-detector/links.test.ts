import { describe, expect, it } from 'vitest';
import { movementDetectorPath, readMovementDetectorSearch } from './links';

describe('Movement Detector links (the URL contract)', () => {
  it('builds ?subject&video&run&edit=1 in that form', () => {
    expect(movementDetectorPath('p1', { subject: 's1', video: 'v1' })).toBe(
      '/projects/p1/movement-detector?subject=s1&video=v1',
    );
    expect(movementDetectorPath('p1', { subject: 's1', video: 'v1', run: 'r1' })).toBe(
      '/projects/p1/movement-detector?subject=s1&video=v1&run=r1',
    );
    expect(movementDetectorPath('p1', { subject: 's1', video: 'v1', run: 'r1', edit: true })).toBe(
      '/projects/p1/movement-detector?subject=s1&video=v1&run=r1&edit=1',
    );
    expect(movementDetectorPath('p1')).toBe('/projects/p1/movement-detector');
  });

  it('drops what has no parent: a video without a subject, a run without a video, edit without a run', () => {
    expect(movementDetectorPath('p1', { video: 'v1', run: 'r1' })).toBe('/projects/p1/movement-detector');
    expect(movementDetectorPath('p1', { subject: 's1', run: 'r1', edit: true })).toBe(
      '/projects/p1/movement-detector?subject=s1',
    );
  });

  it('reads the same keys back', () => {
    expect(readMovementDetectorSearch(new URLSearchParams('subject=s&video=v&run=r&edit=1'))).toEqual({
      subject: 's',
      video: 'v',
      run: 'r',
      edit: true,
    });
    expect(readMovementDetectorSearch(new URLSearchParams('subject=s&video=v&edit=1'))).toEqual({
      subject: 's',
      video: 'v',
      run: null,
      edit: false,
    });
    expect(readMovementDetectorSearch(new URLSearchParams('video=v&run=r'))).toEqual({
      subject: null,
      video: null,
      run: null,
      edit: false,
    });
  });
});
