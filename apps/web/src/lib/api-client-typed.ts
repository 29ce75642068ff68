/**
 * The typed client: every call names an operation of packages/api/openapi.json by its path and method, with the
 * operation's path parameters, query and body, so a removed or renamed endpoint, or a misnamed parameter, fails
 * `npm run typecheck` (ADR 021). openapi-fetch builds the URL and the body; sending is api-client.ts's (bearer,
 * XSRF, one refresh on 401, failures as ApiError with the server's `errors` body), so every call behaves as before.
 */
import type { paths } from '@app/api';
import createClient, {
  type ClientPathsWithMethod,
  createFinalURL,
  defaultPathSerializer,
  type MaybeOptionalInit,
} from 'openapi-fetch';
import { ApiError, parseBody, queryString, RequiredError, sendWithAuth } from './api-client';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** What the app adds to openapi-fetch's options. */
type Extras = {
  /** Send the bearer token and refresh on 401 (default true); false for calls made before signing in. */
  auth?: boolean;
};

/**
 * openapi-fetch hands its transport a Request; a platform Request would need an absolute URL and would turn a
 * FormData body into a one-shot stream (no retry after a refresh). This one keeps the URL and the init as built.
 */
class PlannedRequest {
  readonly method: string;
  constructor(
    readonly url: string,
    readonly init: RequestInit & Extras,
  ) {
    this.method = init.method ?? 'GET';
  }
}

/** The transport: api-client's send with auth; a failed call throws ApiError, so callers only see successes. */
async function transport(request: PlannedRequest): Promise<Response> {
  const { url, init } = request;
  const body = init.body ?? undefined;
  const response = await sendWithAuth(url, {
    method: request.method,
    body,
    json: body !== undefined && !(body instanceof FormData),
    auth: init.auth !== false,
    signal: init.signal,
  });
  if (!response.ok) throw new ApiError(response.status, await parseBody(response), request.method, url);
  return response;
}

const client = createClient<paths>({
  baseUrl: '',
  // openapi-fetch types these two as the platform's; ours take what it passes them (see PlannedRequest).
  Request: PlannedRequest as unknown as typeof Request,
  fetch: transport as unknown as (input: Request) => Promise<Response>,
  querySerializer: (query) => queryString(query),
});

/** The operations that answer `method`, by path ('/api/projects/{project_uuid}/'). */
export type ApiPath<M extends Method> = ClientPathsWithMethod<typeof client, M>;

/**
 * What the schema does not describe: uploads (multipart) and the empty JSON object some actions are sent with.
 * Both are allowed only where the operation declares no JSON body.
 */
type UndeclaredBody = { body?: FormData | Record<string, never> };
type WithBody<I> = I extends { body?: never } ? Omit<I, 'body'> & UndeclaredBody : I;

/** A call's options: `params.path`, `params.query` and `body` as the operation declares them, plus `signal`. */
export type ApiInit<M extends Method, P extends ApiPath<M>> =
  MaybeOptionalInit<paths[P], M> extends infer I
    ? undefined extends I
      ? (WithBody<NonNullable<I>> & Extras) | undefined
      : WithBody<I> & Extras
    : never;

/** The options argument may be left out when the operation needs none. */
type InitArgs<M extends Method, P extends ApiPath<M>> =
  undefined extends ApiInit<M, P> ? [init?: ApiInit<M, P>] : [init: ApiInit<M, P>];

type SuccessStatus = 200 | 201 | 202 | 204;
type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;

/**
 * The JSON body an operation answers with on success (undefined for 204). Read from the schema directly:
 * openapi-fetch's own `data` type passes through its Readable helper, which widens tuples (`[number, number][]`).
 */
export type ApiData<M extends Method, P extends ApiPath<M>> = paths[P][M] extends { responses: infer R }
  ? { [S in keyof R & SuccessStatus]: JsonContent<R[S]> }[keyof R & SuccessStatus]
  : never;

type LooseInit = {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
} & Omit<RequestInit, 'body'> &
  Extras;

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The spec's rule (§5): every path parameter, and a body where one is passed, must be there. */
function checkRequired(method: Method, path: string, init: LooseInit | undefined) {
  const operation = `${method.toUpperCase()} ${path}`;
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    const value = init?.params?.path?.[name!];
    if (value === null || value === undefined) throw new RequiredError(camel(name!), operation);
  }
  if (init && 'body' in init && (init.body === null || init.body === undefined)) {
    throw new RequiredError('body', operation);
  }
}

async function send(method: Method, path: string, init: LooseInit | undefined): Promise<Response> {
  checkRequired(method, path, init);
  // The facade's signatures carry the typing; inside, openapi-fetch is called with the checked, untyped options.
  const request = client.request as unknown as (
    method: Method,
    path: string,
    init: LooseInit & { parseAs: 'stream' },
  ) => Promise<{ response: Response }>;
  // 'stream' leaves the body unread: it is read below exactly as api-client reads it (JSON, text or nothing).
  const { response } = await request(method, path, { ...init, parseAs: 'stream' });
  return response;
}

function jsonCall<M extends Method>(method: M) {
  return <P extends ApiPath<M>>(path: P, ...[init]: InitArgs<M, P>): Promise<ApiData<M, P>> =>
    send(method, path, init as LooseInit | undefined).then(parseBody) as Promise<ApiData<M, P>>;
}

/** JSON calls by operation: `api.GET('/api/projects/{project_uuid}/', { params: { path: { project_uuid } } })`. */
export const api = {
  GET: jsonCall('get'),
  POST: jsonCall('post'),
  PUT: jsonCall('put'),
  PATCH: jsonCall('patch'),
  DELETE: jsonCall('delete'),
};

/** A call whose answer is a file or raw bytes (an export, a series): the successful Response, body unread. */
export function apiDownload<M extends Method, P extends ApiPath<M>>(
  method: M,
  path: P,
  ...[init]: InitArgs<M, P>
): Promise<Response> {
  return send(method, path, init as LooseInit | undefined);
}

/** The URL of a call, for the rare request that must bypass the client (a keepalive on page exit). */
export function apiUrl<M extends Method, P extends ApiPath<M>>(method: M, path: P, ...[init]: InitArgs<M, P>): string {
  const loose = init as LooseInit | undefined;
  checkRequired(method, path, loose);
  return createFinalURL(path, {
    baseUrl: '',
    params: { path: loose?.params?.path ?? {}, query: loose?.params?.query ?? {} },
    querySerializer: queryString,
    pathSerializer: defaultPathSerializer,
  });
}

/**
 * A numeric id (a user's) as the schema's string path parameter. A missing id stays missing, so the call still
 * fails with the spec's "Required parameter" error rather than asking for '/undefined/'.
 */
export function idParam(id: number): string {
  return id === null || id === undefined ? (id as unknown as string) : String(id);
}
