import { vi } from 'vitest';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * Stubs fetch with a router of "METHOD path" → handler ("METHOD path?query" matches that exact URL first); unknown
 * calls answer 404 and are recorded.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const calls: { method: string; url: string; init: RequestInit }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    calls.push({ method, url, init });
    const path = url.split('?')[0]!;
    const handler = routes[`${method} ${url}`] ?? routes[`${method} ${path}`];
    return handler ? handler(url, init) : json({ errors: 'Not found.' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export function header(init: RequestInit, name: string): string | null {
  return new Headers(init.headers).get(name);
}
