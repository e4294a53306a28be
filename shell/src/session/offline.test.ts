import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetOfflineCopies } from './offline';

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.unstubAllGlobals();
});

describe('signing out forgets what was kept for offline use (forgetOfflineCopies)', () => {
  it('tells the workers, deletes every cache and unregisters every worker', async () => {
    const names = new Set(['dme-driver-api-u1', 'dme-driver-pages-u1', 'dme-driver-static-v1']);
    vi.stubGlobal('caches', { keys: async () => [...names], delete: vi.fn(async (k: string) => names.delete(k)) });
    const controller = { postMessage: vi.fn() };
    const registration = { active: { postMessage: vi.fn() }, unregister: vi.fn(async () => true) };
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { controller, getRegistrations: async () => [registration] } });
    await forgetOfflineCopies();
    expect(controller.postMessage).toHaveBeenCalledWith({ type: 'dme:sign-out' });
    expect([...names]).toEqual([]);
    expect(registration.active.postMessage).toHaveBeenCalledWith({ type: 'dme:sign-out' });
    expect(registration.unregister).toHaveBeenCalled();
  });

  it('a worker registered again just after (a register() queued behind the sign-out) is unregistered too', async () => {
    vi.stubGlobal('caches', { keys: async () => [], delete: vi.fn() });
    let registered = true;
    let comesBack = 1;
    const registration = {
      active: { postMessage: vi.fn() },
      unregister: vi.fn(async () => {
        registered = comesBack-- > 0;
        return true;
      }),
    };
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { controller: null, getRegistrations: async () => (registered ? [registration] : []) } });
    await forgetOfflineCopies();
    expect(registration.unregister).toHaveBeenCalledTimes(2);
    expect(registered).toBe(false);
  });

  it('never fails the sign-out, with no worker support or when the browser refuses', async () => {
    vi.stubGlobal('caches', { keys: async () => Promise.reject(new Error('SecurityError')), delete: vi.fn() });
    await expect(forgetOfflineCopies()).resolves.toBeUndefined();
  });
});
