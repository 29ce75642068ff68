import { describe, expect, it } from 'vitest';
import { patchSearchParams } from './search-params';

describe('patchSearchParams', () => {
  it('sets non-empty values, removes null and empty ones, keeps the rest and leaves the input alone', () => {
    const params = new URLSearchParams('subject=s1&video=v1&page=3');
    const next = patchSearchParams(params, { video: 'v2', page: null, search: '', kind: 'movement_detection' });
    expect(next.toString()).toBe('subject=s1&video=v2&kind=movement_detection');
    expect(params.toString()).toBe('subject=s1&video=v1&page=3');
  });
});
