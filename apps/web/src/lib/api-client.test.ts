import { beforeEach, describe, expect, it, vi } from 'vitest';
import { header, json, mockFetch } from '@/test/http';
import { ApiError, apiRequest, RequiredError, requireParam, setAuthLostHandler } from './api-client';
import { tokens } from './tokens';

describe('requireParam', () => {
  it('throws the spec message for null or undefined', () => {
    expect(() => requireParam('projectUuid', undefined, 'projectsRetrieve')).toThrow(
      'Required parameter projectUuid was null or undefined when calling projectsRetrieve.',
    );
    expect(() => requireParam('body', null, 'projectsCreate')).toThrow(RequiredError);
  });
  it('returns present values, including falsy ones', () => {
    expect(requireParam('x', '', 'op')).toBe('');
    expect(requireParam('x', 0, 'op')).toBe(0);
  });
});

describe('apiRequest', () => {
  let lost: ReturnType<typeof vi.fn<() => void>>;
  beforeEach(() => {
    lost = vi.fn<() => void>();
    setAuthLostHandler(lost);
  });

  it('calls /api with the bearer token and a JSON body', async () => {
    tokens.set('A1', 'R1');
    const { calls } = mockFetch({ 'POST /api/projects/': () => json({ ok: true }, 201) });
    await expect(apiRequest('projects/', { method: 'POST', body: { name: 'x' } })).resolves.toEqual({ ok: true });
    expect(calls[0]!.url).toBe('/api/projects/');
    expect(header(calls[0]!.init, 'Authorization')).toBe('Bearer A1');
    expect(header(calls[0]!.init, 'Content-Type')).toBe('application/json');
    expect(calls[0]!.init.body).toBe('{"name":"x"}');
  });

  it('sends no Authorization header without a token', async () => {
    const { calls } = mockFetch({ 'GET /api/health/': () => json({ status: 'ok' }) });
    await apiRequest('health/');
    expect(header(calls[0]!.init, 'Authorization')).toBeNull();
  });

  it('copies the XSRF-TOKEN cookie into X-XSRF-TOKEN only when the cookie exists', async () => {
    const { calls } = mockFetch({ 'GET /api/health/': () => json({}) });
    await apiRequest('health/');
    expect(header(calls[0]!.init, 'X-XSRF-TOKEN')).toBeNull();
    // biome-ignore lint/suspicious/noDocumentCookie: the test sets the anti-forgery cookie.
    document.cookie = 'XSRF-TOKEN=abc%3D123; path=/';
    await apiRequest('health/');
    expect(header(calls[1]!.init, 'X-XSRF-TOKEN')).toBe('abc=123');
  });

  it('has no client timeout: no abort signal unless the caller passes one', async () => {
    const { calls } = mockFetch({ 'GET /api/health/': () => json({}) });
    await apiRequest('health/');
    expect(calls[0]!.init.signal).toBeUndefined();
  });

  it('builds query strings, skipping empty values', async () => {
    const { calls } = mockFetch({ 'GET /api/projects/p/subjects/': () => json({ results: [] }) });
    await apiRequest('projects/p/subjects/', { query: { page: 2, search: '', ordering: '-name', x: undefined } });
    expect(calls[0]!.url).toBe('/api/projects/p/subjects/?page=2&ordering=-name');
  });

  it('throws ApiError with the status and the body', async () => {
    mockFetch({ 'POST /api/projects/': () => json({ errors: { name: ['Taken.'] } }, 400) });
    const error = await apiRequest('projects/', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).fieldErrors).toEqual({ name: ['Taken.'] });
    expect((error as ApiError).message).toBe('POST /api/projects/ → 400');
  });

  it('on 401 refreshes once (rotating the refresh token) and retries', async () => {
    tokens.set('OLD', 'R1');
    const { calls } = mockFetch({
      'GET /api/auth/user/': (_url, init) =>
        header(init, 'Authorization') === 'Bearer NEW' ? json({ id: 1 }) : json({ errors: 'expired' }, 401),
      'POST /api/auth/token/refresh/': (_url, init) => {
        expect(JSON.parse(String(init.body))).toEqual({ access: 'OLD', refresh: 'R1' });
        expect(header(init, 'Authorization')).toBeNull();
        return json({ access: 'NEW', refresh: 'R2' });
      },
    });
    await expect(apiRequest('auth/user/')).resolves.toEqual({ id: 1 });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/auth/user/',
      'POST /api/auth/token/refresh/',
      'GET /api/auth/user/',
    ]);
    expect(tokens.access()).toBe('NEW');
    expect(tokens.refresh()).toBe('R2');
    expect(lost).not.toHaveBeenCalled();
  });

  it('signs out when the refresh fails', async () => {
    tokens.set('OLD', 'R1');
    mockFetch({
      'GET /api/auth/user/': () => json({ errors: 'expired' }, 401),
      'POST /api/auth/token/refresh/': () => json({ errors: 'invalid' }, 401),
    });
    await expect(apiRequest('auth/user/')).rejects.toMatchObject({ status: 401 });
    expect(lost).toHaveBeenCalledTimes(1);
    expect(tokens.access()).toBeNull();
    expect(tokens.refresh()).toBeNull();
  });

  it('shares one refresh between concurrent 401s', async () => {
    tokens.set('OLD', 'R1');
    const { calls } = mockFetch({
      'GET /api/a/': (_u, init) => (header(init, 'Authorization') === 'Bearer NEW' ? json(1) : json({}, 401)),
      'GET /api/b/': (_u, init) => (header(init, 'Authorization') === 'Bearer NEW' ? json(2) : json({}, 401)),
      'POST /api/auth/token/refresh/': () => json({ access: 'NEW', refresh: 'R2' }),
    });
    await expect(Promise.all([apiRequest('a/'), apiRequest('b/')])).resolves.toEqual([1, 2]);
    expect(calls.filter((c) => c.url.includes('refresh')).length).toBe(1);
  });
});

describe('fetchFile', () => {
  it("reads 'GET {url} → {status}' on failure", async () => {
    mockFetch({});
    const { fetchFile } = await import('./api-client');
    await expect(fetchFile('/files/series.csv')).rejects.toThrow('GET /files/series.csv → 404');
  });
});
