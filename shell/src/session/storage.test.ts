import { describe, expect, it } from 'vitest';
import type { User } from '@dme/contracts';
import { clearUserStore, readUserStore, USER_STORE_KEY, writeUserStore } from './storage';

describe('userStore in browser storage', () => {
  it('keeps the profile and loginStatus only, and clears them', () => {
    writeUserStore({ id: 'u1', username: 'customer', userType: 'CUSTOMER' } as User);
    expect(JSON.parse(localStorage.getItem(USER_STORE_KEY)!)).toEqual({ user: { id: 'u1', username: 'customer', userType: 'CUSTOMER' }, loginStatus: true });
    expect(readUserStore()?.user.username).toBe('customer');
    clearUserStore();
    expect(readUserStore()).toBeUndefined();
  });

  it('treats malformed or signed-out data as signed out', () => {
    for (const raw of ['not json', '{}', '{"loginStatus":false,"user":{"userType":"CUSTOMER"}}', '{"loginStatus":true}']) {
      localStorage.setItem(USER_STORE_KEY, raw);
      expect(readUserStore()).toBeUndefined();
    }
  });
});
