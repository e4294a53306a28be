import type { User } from '@dme/contracts';

/** Browser storage key of the non-secret session profile (SPEC §9: userStore). */
export const USER_STORE_KEY = 'userStore';

export interface UserStore {
  user: User;
  loginStatus: boolean;
}

/** Reads the stored profile; anything malformed counts as signed out. */
export function readUserStore(storage: Storage = localStorage): UserStore | undefined {
  try {
    const raw = storage.getItem(USER_STORE_KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<UserStore>;
    if (!parsed.loginStatus || !parsed.user || typeof parsed.user.userType !== 'string') return undefined;
    return parsed as UserStore;
  } catch {
    return undefined;
  }
}

export function writeUserStore(user: User, storage: Storage = localStorage): void {
  storage.setItem(USER_STORE_KEY, JSON.stringify({ user, loginStatus: true } satisfies UserStore));
}

/** Clears everything the browser keeps about the session (the cookie is cleared by the server). */
export function clearUserStore(storage: Storage = localStorage): void {
  storage.removeItem(USER_STORE_KEY);
}
