import { beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { json, mockFetch } from '@/test/http';
import { testUser } from '@/test/render';
import { initSession, login, logout, sessionStore } from './session';

const user = testUser;

describe('session start-up sequence (spec §4)', () => {
  beforeEach(() => {
    sessionStore.reset();
    queryClient.clear();
  });

  it('with a stored access token fetches the user → authenticated', async () => {
    tokens.set('A', 'R');
    const { calls } = mockFetch({ 'GET /api/auth/user/': () => json(user) });
    const state = await initSession();
    expect(state).toEqual({ status: 'authenticated', user });
    expect(calls).toHaveLength(1);
  });

  it('when the user fetch fails, drops the access token and uses the refresh token', async () => {
    tokens.set('A', 'R');
    const { calls } = mockFetch({
      'GET /api/auth/user/': (_url, init) =>
        new Headers(init.headers).get('Authorization') === 'Bearer A2' ? json(user) : json({ errors: 'x' }, 401),
      'POST /api/auth/token/refresh/': () => json({ access: 'A2', refresh: 'R2' }),
    });
    const state = await initSession();
    expect(state.status).toBe('authenticated');
    expect(tokens.access()).toBe('A2');
    expect(tokens.refresh()).toBe('R2');
    expect(calls.some((c) => c.url === '/api/auth/token/refresh/')).toBe(true);
  });

  it('when the refresh fails too, removes the refresh token → unauthenticated', async () => {
    tokens.set('A', 'R');
    mockFetch({
      'GET /api/auth/user/': () => json({ errors: 'x' }, 401),
      'POST /api/auth/token/refresh/': () => json({ errors: 'bad' }, 401),
    });
    const state = await initSession();
    expect(state).toEqual({ status: 'unauthenticated', user: null });
    expect(tokens.access()).toBeNull();
    expect(tokens.refresh()).toBeNull();
  });

  it('without tokens is unauthenticated without calling the server', async () => {
    const { calls } = mockFetch({});
    expect(sessionStore.getState().status).toBe('loading');
    await expect(initSession()).resolves.toEqual({ status: 'unauthenticated', user: null });
    expect(calls).toHaveLength(0);
  });

  it('login stores both tokens and the user', async () => {
    mockFetch({ 'POST /api/auth/login/': () => json({ access: 'A', refresh: 'R', user }) });
    await login('ada@lab.org', 'pw');
    expect(tokens.access()).toBe('A');
    expect(tokens.refresh()).toBe('R');
    expect(sessionStore.getState()).toEqual({ status: 'authenticated', user });
  });

  it('logout clears the tokens, the active project, project copies and every cached query', async () => {
    tokens.set('A', 'R');
    localStorage.setItem('activeProjectUuid', 'p1');
    localStorage.setItem('project-p1', '{"name":"x"}');
    localStorage.setItem('vite-ui-theme', 'dark');
    queryClient.setQueryData(['projects', 'list'], { results: [] });
    const { calls } = mockFetch({ 'POST /api/auth/logout/': () => json({}, 200) });
    await logout();
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ refresh: 'R' });
    expect(tokens.access()).toBeNull();
    expect(tokens.refresh()).toBeNull();
    expect(localStorage.getItem('activeProjectUuid')).toBeNull();
    expect(localStorage.getItem('project-p1')).toBeNull();
    expect(localStorage.getItem('vite-ui-theme')).toBe('dark');
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(sessionStore.getState().status).toBe('unauthenticated');
  });
});
