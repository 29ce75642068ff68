import { beforeEach, describe, expect, it, vi } from 'vitest';
import { header, json, mockFetch } from '@/test/http';
import { ApiError, RequiredError, setAuthLostHandler } from './api-client';
import { api, apiDownload, apiUrl, idParam } from './api-client-typed';
import { isProjectLocked, LOCKED_MESSAGE } from './project-locked';
import { tokens } from './tokens';

const P = 'aaaaaaaa-0000-4000-8000-000000000001';
const S = 'bbbbbbbb-0000-4000-8000-000000000002';
const onProject = { params: { path: { project_uuid: P } } };
const onSubject = { params: { path: { project_uuid: P, subject_uuid: S } } };

describe('the typed client checks operations against openapi.json at compile time', () => {
  // Each call below is also run, so the lines a type error names are proven to be reached.
  it('refuses a path that is not an operation, and says so at run time too (404)', async () => {
    mockFetch({});
    // @ts-expect-error: no such path in packages/api/openapi.json
    const call = api.GET('/api/projects/{project_uuid}/no-such-endpoint/', onProject);
    await expect(call).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a path parameter under the wrong name; the missing one fails before sending', async () => {
    const { calls } = mockFetch({});
    // @ts-expect-error: the operation's parameter is project_uuid, not projectUuid
    const call = api.GET('/api/projects/{project_uuid}/', { params: { path: { projectUuid: P } } });
    await expect(call).rejects.toThrow(
      'Required parameter projectUuid was null or undefined when calling GET /api/projects/{project_uuid}/.',
    );
    expect(calls).toHaveLength(0);
  });

  it('refuses a method the path does not have, and a body field of the wrong type', async () => {
    mockFetch({ 'DELETE /api/config/': () => json({}, 405), 'PATCH /api/auth/user/': () => json({ id: 1 }) });
    // @ts-expect-error: /api/config/ is read-only (GET)
    await expect(api.DELETE('/api/config/')).rejects.toMatchObject({ status: 405 });
    // @ts-expect-error: first_name is a string
    await expect(api.PATCH('/api/auth/user/', { body: { first_name: 1 } })).resolves.toEqual({ id: 1 });
  });

  it('types the answer from the schema', async () => {
    mockFetch({ [`GET /api/projects/${P}/subjects/${S}/`]: () => json({ name: 'M12', video_count: 2 }) });
    const subject = await api.GET('/api/projects/{project_uuid}/subjects/{subject_uuid}/', onSubject);
    const count: number = subject.video_count;
    // @ts-expect-error: a subject has no `videos` field
    expect(subject.videos).toBeUndefined();
    expect(count).toBe(2);
  });
});

describe('the typed client sends as api-client does', () => {
  let lost: ReturnType<typeof vi.fn<() => void>>;
  beforeEach(() => {
    lost = vi.fn<() => void>();
    setAuthLostHandler(lost);
  });

  it('fills the path, sends the bearer token and a JSON body, same-origin, without a timeout', async () => {
    tokens.set('A1', 'R1');
    const { calls } = mockFetch({ [`POST /api/projects/${P}/subjects/`]: () => json({ name: 'M12' }, 201) });
    await expect(
      api.POST('/api/projects/{project_uuid}/subjects/', { ...onProject, body: { name: 'M12' } }),
    ).resolves.toEqual({ name: 'M12' });
    const init = calls[0]!.init;
    expect(calls[0]!.url).toBe(`/api/projects/${P}/subjects/`);
    expect(init.method).toBe('POST');
    expect(header(init, 'Authorization')).toBe('Bearer A1');
    expect(header(init, 'Content-Type')).toBe('application/json');
    expect(header(init, 'Accept')).toBe('application/json');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"name":"M12"}');
    expect(init.signal).toBeUndefined();
  });

  it('builds the query as before: empty values left out', async () => {
    const { calls } = mockFetch({});
    await api
      .GET('/api/projects/{project_uuid}/subjects/', {
        params: { path: { project_uuid: P }, query: { page: 2, search: '', ordering: '-name', page_size: undefined } },
      })
      .catch(() => {});
    expect(calls[0]!.url).toBe(`/api/projects/${P}/subjects/?page=2&ordering=-name`);
  });

  it('sends a form as multipart (no JSON content type) and answers undefined for 204', async () => {
    const { calls } = mockFetch({
      [`POST /api/projects/${P}/upload_logo/`]: () => json({ logo_url: '/l.png' }),
      [`DELETE /api/projects/${P}/subjects/${S}/`]: () => json(null, 204),
    });
    const form = new FormData();
    form.append('logo', new Blob(['x']), 'l.png');
    await api.POST('/api/projects/{project_uuid}/upload_logo/', { ...onProject, body: form });
    expect(calls[0]!.init.body).toBe(form);
    expect(header(calls[0]!.init, 'Content-Type')).toBeNull();
    await expect(
      api.DELETE('/api/projects/{project_uuid}/subjects/{subject_uuid}/', onSubject),
    ).resolves.toBeUndefined();
    expect(calls[1]!.init.body).toBeUndefined();
  });

  it('passes the caller’s abort signal, and sends no token for auth: false', async () => {
    tokens.set('A1', 'R1');
    const { calls } = mockFetch({ 'GET /api/config/': () => json({ trash_days: 30 }) });
    const controller = new AbortController();
    await api.GET('/api/config/', { auth: false, signal: controller.signal });
    expect(calls[0]!.init.signal).toBe(controller.signal);
    expect(header(calls[0]!.init, 'Authorization')).toBeNull();
  });

  it('throws ApiError with the status, the spec’s errors body and the call in its message', async () => {
    mockFetch({ [`POST /api/projects/${P}/subjects/`]: () => json({ errors: { name: ['Taken.'] } }, 400) });
    const error = await api
      .POST('/api/projects/{project_uuid}/subjects/', { ...onProject, body: { name: 'M12' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).fieldErrors).toEqual({ name: ['Taken.'] });
    expect((error as ApiError).message).toBe(`POST /api/projects/${P}/subjects/ → 400`);
  });

  it('keeps a locked project’s refusal recognisable', async () => {
    mockFetch({ [`PATCH /api/projects/${P}/subjects/${S}/`]: () => json({ errors: LOCKED_MESSAGE }, 403) });
    const error = await api
      .PATCH('/api/projects/{project_uuid}/subjects/{subject_uuid}/', { ...onSubject, body: { name: 'M13' } })
      .catch((e: unknown) => e);
    expect(isProjectLocked(error)).toBe(true);
  });

  it('on 401 refreshes once and sends the same call again, form body included', async () => {
    tokens.set('OLD', 'R1');
    const { calls } = mockFetch({
      [`POST /api/projects/${P}/upload_logo/`]: (_url, init) =>
        header(init, 'Authorization') === 'Bearer NEW'
          ? json({ logo_url: '/l.png' })
          : json({ errors: 'expired' }, 401),
      'POST /api/auth/token/refresh/': () => json({ access: 'NEW', refresh: 'R2' }),
    });
    const form = new FormData();
    form.append('logo', new Blob(['x']), 'l.png');
    await expect(api.POST('/api/projects/{project_uuid}/upload_logo/', { ...onProject, body: form })).resolves.toEqual({
      logo_url: '/l.png',
    });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `POST /api/projects/${P}/upload_logo/`,
      'POST /api/auth/token/refresh/',
      `POST /api/projects/${P}/upload_logo/`,
    ]);
    expect(calls[2]!.init.body).toBe(form);
    expect(lost).not.toHaveBeenCalled();
  });

  it('signs out when the refresh fails', async () => {
    tokens.set('OLD', 'R1');
    mockFetch({
      'GET /api/auth/user/': () => json({ errors: 'expired' }, 401),
      'POST /api/auth/token/refresh/': () => json({ errors: 'invalid' }, 401),
    });
    await expect(api.GET('/api/auth/user/')).rejects.toMatchObject({ status: 401 });
    expect(lost).toHaveBeenCalledTimes(1);
    expect(tokens.access()).toBeNull();
  });

  it('refuses a missing body on a call that takes one, before sending', async () => {
    const { calls } = mockFetch({});
    const body = null as unknown as { name: string };
    await expect(api.POST('/api/projects/{project_uuid}/subjects/', { ...onProject, body })).rejects.toThrow(
      RequiredError,
    );
    expect(calls).toHaveLength(0);
  });

  it('answers downloads as the unread Response, and failures as ApiError', async () => {
    mockFetch({
      [`GET /api/projects/${P}/analysis/export/?format=csv`]: () =>
        new Response('a,b\n', { headers: { 'content-type': 'text/csv' } }),
      [`GET /api/projects/${P}/analysis/export/?format=xlsx`]: () => json({ errors: 'No runs.' }, 400),
    });
    const path = '/api/projects/{project_uuid}/analysis/export/';
    const response = await apiDownload('get', path, {
      params: { path: { project_uuid: P }, query: { format: 'csv' } },
    });
    await expect(response.text()).resolves.toBe('a,b\n');
    await expect(
      apiDownload('get', path, { params: { path: { project_uuid: P }, query: { format: 'xlsx' } } }),
    ).rejects.toMatchObject({ status: 400, body: { errors: 'No runs.' } });
  });

  it('gives a call’s URL for requests sent outside the client, and numeric ids as path strings', () => {
    expect(apiUrl('patch', '/api/users/profile/{id}/', { params: { path: { id: idParam(7) } }, body: {} })).toBe(
      '/api/users/profile/7/',
    );
    expect(() =>
      apiUrl('patch', '/api/users/profile/{id}/', {
        params: { path: { id: idParam(undefined as unknown as number) } },
        body: {},
      }),
    ).toThrow('Required parameter id was null or undefined');
  });
});
