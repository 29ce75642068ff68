/**
 * The session of spec §4 as a tiny external store, so the HTTP layer can end it on a failed refresh
 * and React reads it with useSyncExternalStore.
 */
import { refreshTokens, setAuthLostHandler } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { removeProjectCopies, STORAGE_KEYS, writeStorage } from '@/lib/storage';
import { tokens } from '@/lib/tokens';
import { authApi, authKeys, type User } from './api';

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';
export type SessionState = { status: SessionStatus; user: User | null };

let state: SessionState = { status: 'loading', user: null };
const listeners = new Set<() => void>();

function setState(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

export const sessionStore = {
  getState: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  setUser(user: User) {
    queryClient.setQueryData(authKeys.user(), user);
    setState({ status: 'authenticated', user });
  },
  /** For tests: back to the initial state. */
  reset() {
    setState({ status: 'loading', user: null });
  },
};

/** Removes everything a signed-in user leaves behind: tokens, active project, every cached query. */
function clearLocalSession() {
  tokens.clear();
  writeStorage(STORAGE_KEYS.activeProjectUuid, null);
  removeProjectCopies();
  queryClient.clear();
}

/**
 * Start-up sequence: with a stored access token fetch the user; if that fails drop the access
 * token and try the refresh token for a new one and the user; if that fails too remove the
 * refresh token → unauthenticated.
 */
export async function initSession(): Promise<SessionState> {
  setState({ status: 'loading', user: null });
  if (tokens.access()) {
    try {
      const user = await authApi.user();
      sessionStore.setUser(user);
      return state;
    } catch {
      tokens.clearAccess();
    }
  }
  if (tokens.refresh()) {
    if (await refreshTokens()) {
      try {
        const user = await authApi.user();
        sessionStore.setUser(user);
        return state;
      } catch {
        tokens.clearAccess();
      }
    }
    tokens.clearRefresh();
  }
  setState({ status: 'unauthenticated', user: null });
  return state;
}

/** Login stores both tokens and the user. */
export async function login(email: string, password: string): Promise<User> {
  const result = await authApi.login({ email, password });
  tokens.set(result.access, result.refresh);
  sessionStore.setUser(result.user);
  return result.user;
}

/** Logout revokes the refresh token (best effort) and clears tokens, active project and all cached data. */
let loggingOut: Promise<void> | null = null;
export function logout(): Promise<void> {
  loggingOut ??= doLogout().finally(() => {
    loggingOut = null;
  });
  return loggingOut;
}

async function doLogout(): Promise<void> {
  const refresh = tokens.refresh();
  if (tokens.access() || refresh) {
    try {
      await authApi.logout(refresh);
    } catch {
      // The server may already consider the session over; local state is cleared regardless.
    }
  }
  clearLocalSession();
  setState({ status: 'unauthenticated', user: null });
}

// A 401 that survives one refresh ends the session.
// The active project stays stored so the user returns to it after signing in again.
setAuthLostHandler(() => {
  tokens.clear();
  queryClient.clear();
  setState({ status: 'unauthenticated', user: null });
});
