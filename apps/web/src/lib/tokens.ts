import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

/** The stored JWT pair (local storage keys accessToken / refreshToken, per the spec). */
export const tokens = {
  access: () => readStorage(STORAGE_KEYS.accessToken),
  refresh: () => readStorage(STORAGE_KEYS.refreshToken),
  set(access: string, refresh?: string | null) {
    writeStorage(STORAGE_KEYS.accessToken, access);
    if (refresh) writeStorage(STORAGE_KEYS.refreshToken, refresh);
  },
  clearAccess: () => writeStorage(STORAGE_KEYS.accessToken, null),
  clearRefresh: () => writeStorage(STORAGE_KEYS.refreshToken, null),
  clear() {
    writeStorage(STORAGE_KEYS.accessToken, null);
    writeStorage(STORAGE_KEYS.refreshToken, null);
  },
};
