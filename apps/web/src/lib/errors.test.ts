import type { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { errorMessage } from './errors';
import {
  createQueryClient,
  handleMutationError,
  QUERY_GC_TIME,
  QUERY_STALE_TIME,
  shouldRetryQuery,
} from './query-client';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const apiError = (status: number, body: unknown) => new ApiError(status, body, 'POST', '/api/x/');

describe('errorMessage', () => {
  it('shows a string errors field as is', () => {
    expect(errorMessage(apiError(400, { errors: 'E-mail not verified.' }))).toBe('E-mail not verified.');
  });
  it('flattens an object of field messages, joined by line breaks', () => {
    const error = apiError(400, { errors: { name: ['Required.', 'Too short.'], metadata: { institution: ['Bad.'] } } });
    expect(errorMessage(error)).toBe('Required.\nToo short.\nBad.');
  });
  it('falls back to the body when there is no errors field', () => {
    expect(errorMessage(apiError(500, 'Gateway down'))).toBe('Gateway down');
    expect(errorMessage(apiError(400, { detail: 'Nope.' }))).toBe('Nope.');
  });
  it('uses the request line when the body says nothing', () => {
    expect(errorMessage(apiError(502, undefined))).toBe('POST /api/x/ → 502');
  });
  it('uses the message of other errors', () => {
    expect(errorMessage(new Error('GET /files/a.csv → 403'))).toBe('GET /files/a.csv → 403');
  });
});

describe('mutation errors', () => {
  it('are logged and toasted with the flattened message', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = apiError(400, { errors: { a: ['One.'], b: ['Two.'] } });
    handleMutationError(error);
    expect(log).toHaveBeenCalledWith(error);
    expect(toast.error).toHaveBeenCalledWith('One.\nTwo.');
  });
  it('are silent on 401', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.mocked(toast.error).mockClear();
    handleMutationError(apiError(401, { errors: 'expired' }));
    expect(toast.error).not.toHaveBeenCalled();
  });
  it('run through the QueryClient mutation cache, without retries', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.mocked(toast.error).mockClear();
    const client = createQueryClient();
    const fn = vi.fn(async () => {
      throw apiError(400, { errors: 'Nope.' });
    });
    await expect(client.getMutationCache().build(client, { mutationFn: fn }).execute(undefined)).rejects.toThrow();
    expect(fn).toHaveBeenCalledTimes(1);
    expect(toast.error).toHaveBeenCalledWith('Nope.');
  });
});

describe('query settings (spec §9)', () => {
  it('are fresh 5 minutes, cached 10, no refetch on mount or focus', () => {
    const client: QueryClient = createQueryClient();
    const queries = client.getDefaultOptions().queries!;
    expect(queries.staleTime).toBe(5 * 60 * 1000);
    expect(QUERY_STALE_TIME).toBe(300_000);
    expect(queries.gcTime).toBe(QUERY_GC_TIME);
    expect(QUERY_GC_TIME).toBe(600_000);
    expect(queries.refetchOnMount).toBe(false);
    expect(queries.refetchOnWindowFocus).toBe(false);
    expect(client.getDefaultOptions().mutations?.retry).toBe(false);
  });
  it('retry up to 3 times except on 401 or 403', () => {
    expect(shouldRetryQuery(0, apiError(500, null))).toBe(true);
    expect(shouldRetryQuery(2, apiError(404, null))).toBe(true);
    expect(shouldRetryQuery(3, apiError(500, null))).toBe(false);
    expect(shouldRetryQuery(0, apiError(401, null))).toBe(false);
    expect(shouldRetryQuery(0, apiError(403, null))).toBe(false);
    expect(shouldRetryQuery(0, new TypeError('network'))).toBe(true);
  });
});
