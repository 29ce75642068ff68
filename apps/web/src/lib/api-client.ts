/**
 * The one HTTP layer: base path /api, bearer token, XSRF header, a single refresh-and-retry on 401,
 * and the spec's "Required parameter" check. No client timeout (spec §9): requests run until the
 * server answers or the caller aborts. Features call the API through the typed client over it
 * (api-client-typed.ts); `apiRequest` by a bare path is what that client replaced.
 */
import { readCookie } from './storage';
import { tokens } from './tokens';

export const API_BASE = '/api';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** The error body shape of every endpoint: a message, or field → messages. */
export type ErrorBody = { errors?: string | Record<string, unknown> } | string | null | undefined;

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly url: string;
  constructor(status: number, body: unknown, method: string, url: string) {
    super(`${method} ${url} → ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.url = url;
  }

  /** Field errors of a `{"errors": {"field": ["msg"]}}` body, else an empty object. */
  get fieldErrors(): Record<string, string[]> {
    const errors = (this.body as { errors?: unknown } | null)?.errors;
    if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return {};
    const out: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(errors)) {
      out[key] = Array.isArray(value) ? value.map(String) : [String(value)];
    }
    return out;
  }
}

export class RequiredError extends Error {
  readonly field: string;
  constructor(field: string, operation: string) {
    super(`Required parameter ${field} was null or undefined when calling ${operation}.`);
    this.name = 'RequiredError';
    this.field = field;
  }
}

/** Throws the spec's message when a path parameter or create body is missing. */
export function requireParam<T>(name: string, value: T | null | undefined, operation: string): T {
  if (value === null || value === undefined) throw new RequiredError(name, operation);
  return value;
}

type Query = Record<string, string | number | boolean | null | undefined>;

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  form?: FormData;
  /** Send the bearer token and refresh on 401 (default true). Token refresh/verify set false. */
  auth?: boolean;
  signal?: AbortSignal;
};

/** Called when a refresh fails during work: the session ends. Registered by the session module. */
let onAuthLost: () => void = () => {};
export function setAuthLostHandler(handler: () => void) {
  onAuthLost = handler;
}

/** The query string of a call, without empty values (undefined, null, ''). */
export function queryString(query: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

export function buildUrl(path: string, query?: Query): string {
  const clean = path.replace(/^\/+/, '');
  const url = `${API_BASE}/${clean}`;
  const qs = query ? queryString(query) : '';
  return qs ? `${url}?${qs}` : url;
}

export function requestHeaders(options: { json?: boolean; auth?: boolean }): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (options.json) headers.set('Content-Type', 'application/json');
  const access = tokens.access();
  if (options.auth !== false && access) headers.set('Authorization', `Bearer ${access}`);
  const xsrf = readCookie(XSRF_COOKIE);
  if (xsrf) headers.set(XSRF_HEADER, xsrf);
  return headers;
}

/** A response body as the app reads it: JSON when the server says so, else text; nothing for an empty body. */
export async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

let refreshing: Promise<boolean> | null = null;

/** Exchanges the stored refresh token for a new pair; concurrent callers share one request. */
export function refreshTokens(): Promise<boolean> {
  if (refreshing) return refreshing;
  const refresh = tokens.refresh();
  const access = tokens.access();
  if (!refresh) return Promise.resolve(false);
  refreshing = (async () => {
    try {
      const response = await fetch(buildUrl('auth/token/refresh/'), {
        method: 'POST',
        headers: requestHeaders({ json: true, auth: false }),
        // Spec §7: the refresh call carries the (expired) access token beside the refresh token.
        body: JSON.stringify(access ? { access, refresh } : { refresh }),
        credentials: 'same-origin',
      });
      if (!response.ok) return false;
      const data = (await response.json()) as { access?: string; refresh?: string };
      if (!data.access) return false;
      tokens.set(data.access, data.refresh ?? null);
      return true;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** One request on the wire, its body already serialised. */
export type WireRequest = {
  method: string;
  body?: BodyInit;
  /** The body is JSON (sets Content-Type). */
  json: boolean;
  /** Send the bearer token and refresh on 401. */
  auth: boolean;
  signal?: AbortSignal | null;
};

/** Sends a request with the bearer token, one refresh-and-retry on 401; answers the raw response (any status). */
export async function sendWithAuth(url: string, request: WireRequest): Promise<Response> {
  const send = () => {
    const init: RequestInit = {
      method: request.method,
      headers: requestHeaders({ json: request.json, auth: request.auth }),
      credentials: 'same-origin',
    };
    if (request.signal) init.signal = request.signal;
    if (request.body !== undefined) init.body = request.body;
    return fetch(url, init);
  };

  const hadToken = request.auth && tokens.access() !== null;
  let response = await send();
  if (response.status === 401 && hadToken) {
    // One refresh, one retry; a second failure ends the session.
    if (await refreshTokens()) response = await send();
    if (response.status === 401) {
      tokens.clear();
      onAuthLost();
    }
  }
  return response;
}

/** Sends a call by its path under /api (see sendWithAuth). */
export function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  const json = options.body !== undefined && !options.form;
  return sendWithAuth(buildUrl(path, options.query), {
    method: options.method ?? 'GET',
    body: options.form ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
    json,
    auth: options.auth !== false,
    signal: options.signal,
  });
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiFetch(path, options);
  const body = await parseBody(response);
  if (!response.ok) throw new ApiError(response.status, body, options.method ?? 'GET', buildUrl(path, options.query));
  return body as T;
}

/** Fetches a file (CSV, JSON output…) by URL; failures read 'GET {url} → {status}'. */
export async function fetchFile(url: string, init?: RequestInit): Promise<Blob> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`GET ${url} → ${response.status}`);
  return response.blob();
}

/**
 * A multipart POST with upload progress (fetch cannot report it), sharing the bearer, XSRF
 * and refresh rules of apiRequest.
 */
export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  const url = buildUrl(path);
  const attempt = () =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      requestHeaders({ auth: true }).forEach((value, key) => {
        xhr.setRequestHeader(key, value);
      });
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      };
      xhr.onload = () => {
        let body: unknown = xhr.responseText;
        try {
          body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
        } catch {
          // keep text
        }
        resolve({ status: xhr.status, body });
      };
      xhr.onerror = () => reject(new Error('Network error during upload'));
      xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(form);
    });

  return (async () => {
    let result = await attempt();
    if (result.status === 401 && tokens.access()) {
      if (await refreshTokens()) result = await attempt();
      if (result.status === 401) {
        tokens.clear();
        onAuthLost();
      }
    }
    if (result.status < 200 || result.status >= 300) throw new ApiError(result.status, result.body, 'POST', url);
    return result.body as T;
  })();
}

/** A page of a list endpoint. */
export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };

export type ListParams = { page?: number; page_size?: number; search?: string; ordering?: string };
