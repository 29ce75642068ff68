import { beforeEach, describe, expect, it } from 'vitest';
import { readToolContext, toolContextKey, writeToolContext } from './tool-context';

describe('tool context in local storage', () => {
  beforeEach(() => localStorage.clear());

  it('is kept per user, project and tool', () => {
    writeToolContext(7, 'p1', 'quick-score', { subject: 's', video: 'v', run: 'r' });
    expect(readToolContext(7, 'p1', 'quick-score')).toEqual({ subject: 's', video: 'v', run: 'r' });
    expect(readToolContext(8, 'p1', 'quick-score')).toBeNull();
    expect(readToolContext(7, 'p2', 'quick-score')).toBeNull();
    expect(readToolContext(7, 'p1', 'annotator')).toBeNull();
  });

  it('drops what does not hold together: no subject, a run without its video, broken JSON', () => {
    localStorage.setItem(toolContextKey(1, 'p', 'annotator'), JSON.stringify({ video: 'v' }));
    expect(readToolContext(1, 'p', 'annotator')).toBeNull();
    localStorage.setItem(toolContextKey(1, 'p', 'annotator'), JSON.stringify({ subject: 's', run: 'r' }));
    expect(readToolContext(1, 'p', 'annotator')).toEqual({ subject: 's', video: null, run: null });
    localStorage.setItem(toolContextKey(1, 'p', 'annotator'), '{nope');
    expect(readToolContext(1, 'p', 'annotator')).toBeNull();
  });
});
