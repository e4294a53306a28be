/*
 * What the driver app's service worker (sw.ts) does with each request, as pure functions the
 * worker and its tests share (issue 28, part 4a: the driver's screens read offline). Nothing here
 * touches the browser: the worker is the only place that acts on these answers.
 */

/** Where the driver app's files are served (the gateway: /remotes/<name>/). */
export const DRIVER_BASE = '/remotes/mf-driver/';
/** The worker's script (built from sw.ts by mf-driver/rspack.config.mjs). */
export const WORKER_URL = `${DRIVER_BASE}sw.js`;
/** The web app manifest (written by the build, src/pwa/assets.mjs). */
export const MANIFEST_URL = `${DRIVER_BASE}driver.webmanifest`;
/**
 * The worker's scope: the staff screens' folder. Its script lives under /remotes/mf-driver/, so
 * the gateway allows this wider scope with `Service-Worker-Allowed: /admin/`. Only the driver's
 * screens below it are ever answered from a cache (`isDriverScreen`); the rest pass through.
 */
export const WORKER_SCOPE = '/admin/';
/** Every cache of the worker starts with this (sign-out and a new user delete them by it). */
export const CACHE_PREFIX = 'dme-driver-';

export type CacheRule = 'network-first' | 'cache-first' | 'none';
/** Which of the worker's caches keeps an answer. */
export type Store = 'pages' | 'static' | 'api';

/** The driver's screens: Today, For Delivery, For Pickup, an order of either and its hand-over. */
const DRIVER_SCREEN = /^\/admin\/(today|(for-delivery|for-pickup)(\/[^/]+(\/handover)?)?)\/?$/;
/** A built file whose name carries a content hash (as the gateway's static.ts decides). */
const HASHED = /[.-][0-9a-f]{8,}\.(js|mjs|css|png|jpg|svg|woff2)$/;
/** Built files whose names never change: always asked for again while online. */
const NEVER_CACHE_FIRST = new Set(['index.html', 'mf-manifest.json', 'remoteEntry.js', 'mf-stats.json']);
/** The shell's own built files sit at the root: `/main.0123abcdef.js`, `/first-screen-boot.js`. */
const SHELL_FILE = /^\/[^/]+\.[a-z0-9]{1,12}$/i;

export function isDriverScreen(pathname: string): boolean {
  return DRIVER_SCREEN.test(pathname);
}

/** The API reads the driver's screens make: theirs (/api/driver/…) and the shell's session read. */
export function isDriverRead(pathname: string): boolean {
  return pathname.startsWith('/api/driver/') || pathname === '/api/auth/me';
}

/**
 * How the worker answers a request:
 * - `network-first`: the network, and the last good copy when it cannot be reached (the driver's
 *   screens, their API reads, and built files whose names never change: mf-manifest.json,
 *   remoteEntry.js...);
 * - `cache-first`: the kept copy if any (hashed files never change under their name);
 * - `none`: not touched (the browser fetches it as if there were no worker): anything but a GET,
 *   another origin, another role's screens and remotes, every other API call, the live stream.
 */
export function cacheRuleFor(url: string | URL, method: string, mode: string, origin?: string): CacheRule {
  const u = typeof url === 'string' ? new URL(url) : url;
  if (method !== 'GET') return 'none';
  if (origin !== undefined && u.origin !== origin) return 'none';
  const path = u.pathname;
  if (mode === 'navigate') return isDriverScreen(path) ? 'network-first' : 'none';
  if (path.startsWith('/api/')) return isDriverRead(path) ? 'network-first' : 'none';
  let file: string;
  if (path.startsWith(DRIVER_BASE)) {
    file = path.slice(DRIVER_BASE.length);
    // The worker's own script is the browser's to update; the manifest and icons it reads itself.
    if (file === 'sw.js' || file === '') return 'none';
  } else if (SHELL_FILE.test(path)) {
    file = path.slice(1);
  } else {
    // Another remote (/remotes/mf-warehouse/...), uploads, docs: not the driver's.
    return 'none';
  }
  return !NEVER_CACHE_FIRST.has(file) && HASHED.test(file) ? 'cache-first' : 'network-first';
}

/** The cache an answer of a request `cacheRuleFor` did not answer `none` to goes into. */
export function storeFor(url: string | URL, mode: string): Store {
  const u = typeof url === 'string' ? new URL(url) : url;
  if (mode === 'navigate') return 'pages';
  return u.pathname.startsWith('/api/') ? 'api' : 'static';
}

/**
 * The worker's caches. Pages and API answers belong to one user (the id comes with the worker's
 * script URL: a new user means a new worker, which deletes the previous user's caches when it
 * takes over); built files are the same for everyone. `version` changes with the worker's way of
 * keeping them.
 */
export function cacheNames(userId: string, version: string): Record<Store, string> {
  const user = userId.replace(/[^A-Za-z0-9_-]/g, '') || 'anonymous';
  return {
    pages: `${CACHE_PREFIX}pages-${user}`,
    api: `${CACHE_PREFIX}api-${user}`,
    static: `${CACHE_PREFIX}static-${version}`,
  };
}

/** The key a page is kept under: its path (a query does not make another page of this app). */
export function pageKey(url: string | URL): string {
  const u = typeof url === 'string' ? new URL(url) : url;
  return `${u.origin}${u.pathname}`;
}

/**
 * Any kept driver screen serves for another one never opened online: the page is the same
 * single-page app whatever the path (the router draws the screen from the URL).
 */
export function lastPageKey(origin: string): string {
  return `${origin}${WORKER_SCOPE}__driver-app`;
}

/**
 * The driver app's chunks named by its federation manifest (mf-manifest.json): what its screens
 * load (Today, an order, the hand-over), kept so that a screen never opened online opens offline.
 * Only the exposed app's files: the shared modules' own copies are never loaded (the shell
 * provides them).
 */
export function chunksToKeep(manifest: unknown, origin: string): string[] {
  const m = manifest as {
    metaData?: { publicPath?: unknown };
    exposes?: Array<{ assets?: Record<string, { sync?: unknown; async?: unknown } | undefined> }>;
  } | null;
  if (!m || typeof m !== 'object' || !Array.isArray(m.exposes)) return [];
  const base = typeof m.metaData?.publicPath === 'string' && m.metaData.publicPath.startsWith(DRIVER_BASE) ? m.metaData.publicPath : DRIVER_BASE;
  const names = new Set<string>();
  for (const expose of m.exposes) {
    for (const kind of ['js', 'css']) {
      const assets = expose?.assets?.[kind];
      for (const list of [assets?.sync, assets?.async]) {
        if (!Array.isArray(list)) continue;
        for (const name of list) if (typeof name === 'string' && /^[\w.-]+$/.test(name) && HASHED.test(name)) names.add(name);
      }
    }
  }
  return [...names].map((name) => `${origin}${base}${name}`);
}
