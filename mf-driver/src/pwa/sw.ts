/*
 * The driver app's service worker (issue 28, part 4a): the driver's screens load and show the last
 * known data when the phone has no signal, also after a reload. Built on its own into
 * dist/sw.js (mf-driver/rspack.config.mjs), served at /remotes/mf-driver/sw.js with
 * `Service-Worker-Allowed: /admin/` and registered by the driver app (register.ts) with the
 * scope /admin/ and the signed-in user's id in its URL (`?u=<id>`).
 *
 * Hand-written on the Cache API (workbox would be most of the file for three strategies):
 * - the driver's screens (navigations): network first, the last good page when offline;
 * - the shell's and the driver app's built files: hashed names cache first, the rest
 *   (remoteEntry.js, mf-manifest.json) network first;
 * - the driver's API reads and the session read: network first, the kept answer when offline;
 * - anything else (writes, other roles' screens and remotes, the live stream) is not touched.
 * Which is which: rules.ts (unit-tested). Writes made offline are the outbox's business
 * (features/orders), not this worker's.
 */
import { cacheNames, cacheRuleFor, CACHE_PREFIX, chunksToKeep, DRIVER_BASE, lastPageKey, pageKey, storeFor, type Store } from './rules';

/** Bump when the way files are kept changes: the new worker drops the old static cache. */
const VERSION = 'v1';
/** How long a request may take before a kept copy answers instead (a phone on a weak signal). */
const NETWORK_TIMEOUT_MS = 5000;
/** At most this many entries per cache; the oldest written go first. */
const LIMITS: Record<Store, number> = { pages: 20, static: 200, api: 300 };
const DRIVER_FEDERATION_MANIFEST = `${DRIVER_BASE}mf-manifest.json`;

interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface MessageEventLike extends ExtendableEventLike {
  readonly data: unknown;
}
/** The few parts of ServiceWorkerGlobalScope used here (the app's tsconfig has the DOM's types). */
interface WorkerScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
}

const sw = globalThis as unknown as WorkerScope;
const origin = sw.location.origin;
const userId = new URL(sw.location.href).searchParams.get('u') ?? '';
const NAMES = cacheNames(userId, VERSION);
/** Set by the shell's sign-out: from then on nothing is kept or answered from a cache. */
let retired = false;

sw.addEventListener('install', (event) => {
  // A new version (or another user's worker) takes over at once, not after every tab has closed.
  event.waitUntil(sw.skipWaiting());
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // Another user's pages and answers, and files kept by an older version, go.
      const mine = new Set(Object.values(NAMES));
      const keys = await caches.keys();
      await Promise.all(keys.filter((k) => k.startsWith(CACHE_PREFIX) && !mine.has(k)).map((k) => caches.delete(k)));
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; urls?: unknown } | null;
  if (data?.type === 'dme:sign-out') {
    retired = true;
    event.waitUntil(dropCaches());
  } else if (data?.type === 'dme:claim' && !retired) {
    // A page whose document was made while this worker was activating missed its claim.
    event.waitUntil(sw.clients.claim());
  } else if (data?.type === 'dme:keep' && Array.isArray(data.urls) && !retired) {
    // What the page loaded before this worker controlled it (its first visit).
    event.waitUntil(keep(data.urls.filter((u): u is string => typeof u === 'string').slice(0, 200)));
  }
});

sw.addEventListener('fetch', (event) => {
  if (retired) return;
  const { request } = event;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return;
  }
  const rule = cacheRuleFor(url, request.method, request.mode, origin);
  if (rule === 'none') return;
  const store = storeFor(url, request.mode);
  event.respondWith(rule === 'cache-first' ? cacheFirst(event, request, store) : networkFirst(event, request, store));
});

async function dropCaches(): Promise<void> {
  const keys = await caches.keys();
  await Promise.all(keys.filter((k) => k.startsWith(CACHE_PREFIX)).map((k) => caches.delete(k)));
}

/** Only a complete, same-origin, successful answer is kept (never a redirect or an error). */
function keepable(res: Response): boolean {
  return res.ok && res.status === 200 && res.type === 'basic' && !res.redirected;
}

async function put(store: Store, keys: string[], res: Response): Promise<void> {
  if (retired) return;
  // The federation manifest of the driver app names the chunks of every driver screen: they are
  // kept too, so that a screen never opened online still opens offline.
  const federationManifest = store === 'static' && new URL(keys[0]!).pathname === DRIVER_FEDERATION_MANIFEST ? res.clone() : undefined;
  const cache = await caches.open(NAMES[store]);
  for (const [i, key] of keys.entries()) await cache.put(key, i === keys.length - 1 ? res : res.clone());
  // Oldest written first (a put of a known key moves it to the end).
  const all = await cache.keys();
  for (const old of all.slice(0, Math.max(0, all.length - LIMITS[store]))) await cache.delete(old);
  if (federationManifest) await keep(chunksToKeep(await federationManifest.json().catch(() => null), origin));
}

async function match(store: Store, keys: string[]): Promise<Response | undefined> {
  const cache = await caches.open(NAMES[store]);
  for (const key of keys) {
    const hit = await cache.match(key, { ignoreVary: true, ignoreSearch: false });
    if (hit) return hit;
  }
  return undefined;
}

/** The keys an answer is kept under and looked up by (a page: its path, then any driver page). */
function keysFor(request: Request, store: Store): string[] {
  if (store !== 'pages') return [request.url];
  return [pageKey(request.url), lastPageKey(origin)];
}

async function cacheFirst(event: FetchEventLike, request: Request, store: Store): Promise<Response> {
  const keys = keysFor(request, store);
  const hit = await match(store, keys);
  if (hit) return hit;
  const res = await fetch(request);
  if (keepable(res)) event.waitUntil(put(store, keys, res.clone()).catch(() => undefined));
  return res;
}

/**
 * The network's answer, kept when good; the kept copy when the network fails, answers 5xx (the
 * gateway is up, the service behind it is not), or takes longer than NETWORK_TIMEOUT_MS while a
 * copy exists. A 4xx is the answer (a 401 is a signed-out user: never hide it behind a copy).
 */
async function networkFirst(event: FetchEventLike, request: Request, store: Store): Promise<Response> {
  const keys = keysFor(request, store);
  const network = fetch(request).then((res) => {
    if (keepable(res)) event.waitUntil(put(store, keys, res.clone()).catch(() => undefined));
    return res;
  });
  // The lookup in parallel with the request: offline, the copy is ready when the fetch fails.
  const kept = match(store, keys).catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow = new Promise<'slow'>((resolve) => (timer = setTimeout(() => resolve('slow'), NETWORK_TIMEOUT_MS)));
  try {
    const first = await Promise.race([network, slow]);
    if (first === 'slow') {
      const copy = await kept;
      if (copy) {
        event.waitUntil(network.catch(() => undefined));
        return copy;
      }
      return await network;
    }
    if (first.status >= 500) return (await kept) ?? first;
    return first;
  } catch (err) {
    const copy = await kept;
    if (copy) return copy;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Keeps the given URLs the rules allow that are not kept yet (fetched from the network). */
async function keep(urls: string[]): Promise<void> {
  for (const raw of urls) {
    if (retired) return;
    let url: URL;
    try {
      url = new URL(raw, origin);
    } catch {
      continue;
    }
    url.hash = '';
    // A page the driver was on is kept as a page (fetched as a document would be).
    const page = url.origin === origin && cacheRuleFor(url, 'GET', 'navigate', origin) !== 'none';
    const mode = page ? 'navigate' : 'cors';
    if (!page && cacheRuleFor(url, 'GET', mode, origin) === 'none') continue;
    const store = storeFor(url, mode);
    const keys = page ? [pageKey(url), lastPageKey(origin)] : [url.href];
    if (store !== 'api' && (await match(store, keys.slice(0, 1)))) continue;
    try {
      const res = await fetch(url.href, { credentials: 'same-origin', headers: page ? { accept: 'text/html' } : {} });
      if (keepable(res)) await put(store, keys, res);
    } catch {
      // Offline or refused: the next visit keeps it.
    }
  }
}
