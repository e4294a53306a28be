/*
 * The driver app's service worker (sw.ts) run in a stand-in of its scope: the scope's events are
 * captured and fired by hand, the Cache API is a small in-memory one and the network a stub. What
 * is checked is what the worker decides (what it claims, keeps, answers and forgets); that a real
 * browser runs it so is the end-to-end offline test's (e2e/offline.spec.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cacheNames, CACHE_PREFIX } from './rules';

type Listener = (event: unknown) => void;

/** An in-memory Cache API: caches by name, answers by URL (the order written kept, as a browser keeps it). */
class MemoryCaches {
  readonly stores = new Map<string, Map<string, Response>>();
  async keys() {
    return [...this.stores.keys()];
  }
  async delete(name: string) {
    return this.stores.delete(name);
  }
  async open(name: string) {
    const entries = this.stores.get(name) ?? new Map<string, Response>();
    this.stores.set(name, entries);
    const url = (r: string | Request) => (typeof r === 'string' ? r : r.url);
    return {
      put: async (key: string | Request, res: Response) => {
        entries.delete(url(key));
        entries.set(url(key), res);
      },
      match: async (key: string | Request) => entries.get(url(key))?.clone(),
      keys: async () => [...entries.keys()].map((k) => new Request(k)),
      delete: async (key: string | Request) => entries.delete(url(key)),
    };
  }
}

interface Scope {
  listeners: Map<string, Listener>;
  claim: ReturnType<typeof vi.fn>;
  skipWaiting: ReturnType<typeof vi.fn>;
  caches: MemoryCaches;
  fetch: ReturnType<typeof vi.fn>;
}

const USER = 'u-7';
let scope: Scope;

/** Loads a fresh copy of the worker (its state is per worker) into a stand-in scope. */
async function startWorker(): Promise<Scope> {
  const listeners = new Map<string, Listener>();
  vi.spyOn(globalThis, 'addEventListener').mockImplementation(((type: string, listener: Listener) => listeners.set(type, listener)) as typeof globalThis.addEventListener);
  const claim = vi.fn(async () => undefined);
  const skipWaiting = vi.fn(async () => undefined);
  const caches = new MemoryCaches();
  const fetch = vi.fn(async () => new Response('offline', { status: 599 }));
  vi.stubGlobal('clients', { claim });
  vi.stubGlobal('skipWaiting', skipWaiting);
  vi.stubGlobal('caches', caches);
  vi.stubGlobal('fetch', fetch);
  window.history.replaceState(null, '', `/remotes/mf-driver/sw.js?u=${USER}`);
  vi.resetModules();
  await import('./sw');
  window.history.replaceState(null, '', '/');
  return { listeners, claim, skipWaiting, caches, fetch };
}

/** Fires a worker event; resolves once every promise it handed to waitUntil has settled. */
async function fire(type: string, fields: Record<string, unknown> = {}): Promise<{ answer: Promise<Response> | undefined }> {
  const waits: Array<Promise<unknown>> = [];
  let answer: Promise<Response> | undefined;
  const event = { ...fields, waitUntil: (p: Promise<unknown>) => waits.push(p), respondWith: (r: Response | Promise<Response>) => (answer = Promise.resolve(r)) };
  scope.listeners.get(type)!(event);
  if (answer) await answer.catch(() => undefined);
  // put() after a fetch adds its own waitUntil while the answer settles.
  for (let i = 0; i < waits.length; i++) await waits[i];
  return { answer };
}

const page = (path: string) => new Request(`${location.origin}${path}`, { mode: 'same-origin' });
/** A navigation (Request's constructor may not make one: the worker reads only url, method and mode). */
const navigation = (path: string) => ({ url: `${location.origin}${path}`, method: 'GET', mode: 'navigate' }) as unknown as Request;
const html = (body: string) => new Response(body, { status: 200, headers: { 'content-type': 'text/html' } });
const keptNames = () => [...scope.caches.stores.keys()].sort();
const NAMES = cacheNames(USER, 'v1');

beforeEach(async () => {
  scope = await startWorker();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the driver app’s service worker', () => {
  it('takes over at once: skips waiting when installed; when activated drops another user’s and an older version’s caches, keeps its own and claims the pages', async () => {
    await fire('install');
    expect(scope.skipWaiting).toHaveBeenCalledTimes(1);
    for (const name of [`${CACHE_PREFIX}pages-someone-else`, `${CACHE_PREFIX}static-v0`, NAMES.pages, NAMES.static, 'another-app']) await scope.caches.open(name);
    await fire('activate');
    expect(keptNames()).toEqual(['another-app', NAMES.pages, NAMES.static].sort());
    expect(scope.claim).toHaveBeenCalledTimes(1);
  });

  it('claims the page when a page it does not control asks it to (dme:claim)', async () => {
    await fire('message', { data: { type: 'dme:claim' } });
    expect(scope.claim).toHaveBeenCalledTimes(1);
    await fire('message', { data: { type: 'something-else' } });
    await fire('message', { data: null });
    expect(scope.claim).toHaveBeenCalledTimes(1);
  });

  it('a driver screen: the network’s page is kept and answered; offline, the kept one; a screen never opened online gets the last kept page', async () => {
    scope.fetch.mockResolvedValueOnce(html('today, online'));
    const online = await fire('fetch', { request: navigation('/admin/today') });
    expect(await (await online.answer!).text()).toBe('today, online');

    scope.fetch.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await (await (await fire('fetch', { request: navigation('/admin/today') })).answer!).text()).toBe('today, online');
    expect(await (await (await fire('fetch', { request: navigation('/admin/for-pickup') })).answer!).text()).toBe('today, online');
  });

  it('the driver’s API reads: a 5xx (the service behind the gateway down) answers the kept copy; a 4xx is the answer, never a copy', async () => {
    const url = '/api/driver/deliveries?tab=for-delivery';
    scope.fetch.mockResolvedValueOnce(Response.json({ orders: ['kept'] }));
    await fire('fetch', { request: page(url) });
    scope.fetch.mockResolvedValueOnce(new Response('bad gateway', { status: 502 }));
    expect(await (await (await fire('fetch', { request: page(url) })).answer!).json()).toEqual({ orders: ['kept'] });
    scope.fetch.mockResolvedValueOnce(new Response('signed out', { status: 401 }));
    expect((await (await fire('fetch', { request: page(url) })).answer!).status).toBe(401);
  });

  it('leaves alone what is not the driver’s: writes, other APIs, other roles’ screens', async () => {
    for (const request of [
      new Request(`${location.origin}/api/driver/orders/1/deliver`, { method: 'POST' }),
      page('/api/orders'),
      navigation('/admin/reports'),
    ]) {
      expect((await fire('fetch', { request })).answer).toBeUndefined();
    }
  });

  it('keeps what the page loaded before it ran (dme:keep): the driver’s files and reads, not another role’s', async () => {
    scope.fetch.mockImplementation(async (u: string) => new Response(`body of ${u}`, { status: 200 }));
    const own = `${location.origin}/remotes/mf-driver/app.0123456789ab.js`;
    await fire('message', { data: { type: 'dme:keep', urls: [own, `${location.origin}/remotes/mf-warehouse/app.0123456789ab.js`, 42] } });
    expect(scope.fetch.mock.calls.map(([u]) => u)).toEqual([own]);
    scope.fetch.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await (await (await fire('fetch', { request: page('/remotes/mf-driver/app.0123456789ab.js') })).answer!).text()).toBe(`body of ${own}`);
  });

  it('after sign-out (dme:sign-out) it drops every cache of its own, answers nothing more from them, keeps nothing and claims nothing', async () => {
    scope.fetch.mockResolvedValueOnce(html('today, online'));
    await fire('fetch', { request: navigation('/admin/today') });
    await scope.caches.open('another-app');
    expect(keptNames()).toContain(NAMES.pages);

    await fire('message', { data: { type: 'dme:sign-out' } });
    expect(keptNames()).toEqual(['another-app']);
    expect((await fire('fetch', { request: navigation('/admin/today') })).answer).toBeUndefined();
    await fire('message', { data: { type: 'dme:keep', urls: [`${location.origin}/remotes/mf-driver/app.0123456789ab.js`] } });
    await fire('message', { data: { type: 'dme:claim' } });
    expect(scope.claim).not.toHaveBeenCalled();
    expect(keptNames()).toEqual(['another-app']);
  });
});
