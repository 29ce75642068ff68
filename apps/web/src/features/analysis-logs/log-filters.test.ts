import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, hasNarrowingFilters, readLogFilters, toRunFilters } from './log-filters';

const read = (query: string) => readLogFilters(new URLSearchParams(query));

describe('log filters in the URL', () => {
  it('reads kind, status, subject, video and paging', () => {
    const filters = read('kind=event_detection&status=failed&subject=s1&video=v1&page=3&page_size=50');
    expect(filters).toEqual({
      kind: 'event_detection',
      status: 'failed',
      subject: 's1',
      video: 'v1',
      page: 3,
      pageSize: 50,
    });
    expect(hasNarrowingFilters(filters)).toBe(true);
    expect(toRunFilters(filters)).toEqual({
      kind: 'event_detection',
      status: 'failed',
      subject: 's1',
      video: 'v1',
      page: 3,
      page_size: 50,
    });
  });

  it('ignores unknown kinds and statuses and odd paging', () => {
    const filters = read('kind=magic&status=done&page=-2&page_size=7');
    expect(filters).toEqual({
      kind: undefined,
      status: undefined,
      subject: undefined,
      video: undefined,
      page: 1,
      pageSize: DEFAULT_PAGE_SIZE,
    });
    expect(hasNarrowingFilters(filters)).toBe(false);
  });

  it('sends only what is set, so equal filters share a cache entry', () => {
    expect(toRunFilters(read('status=running'))).toEqual({ status: 'running', page: 1, page_size: DEFAULT_PAGE_SIZE });
  });
});
