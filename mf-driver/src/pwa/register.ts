import { useEffect } from 'react';
import { theme } from '@dme/ui';
import { MANIFEST_URL, WORKER_SCOPE, WORKER_URL } from './rules';

/** The colour of the browser's bar on the driver's screens: the shell's brand colour. */
export const THEME_COLOR = theme.token?.colorPrimary ?? '#0b6e79';

/**
 * Makes the driver's screens an installable app that reads offline (issue 28, part 4a), only
 * while the driver app is on the page (a driver, or the superadmin on driver screens): links the
 * web app manifest, sets the title bar's colour and registers the service worker (sw.ts) for
 * /admin/ with the user's id in its URL, so that another user on this phone gets a worker of their
 * own, which drops this one's kept pages and answers. The page's first visit loaded its files
 * before the worker controlled it: it names to the worker each file the worker did not see (as
 * they arrive, too), and the worker keeps them.
 * The shell's sign-out removes the worker and its caches (shell/src/session/offline.ts).
 */
export function useDriverPwa(userId: string): void {
  useEffect(() => {
    const head = document.head;
    const manifest = head.querySelector('link[rel="manifest"]') ?? Object.assign(document.createElement('link'), { rel: 'manifest', href: MANIFEST_URL });
    const color = head.querySelector('meta[name="theme-color"]') ?? Object.assign(document.createElement('meta'), { name: 'theme-color', content: THEME_COLOR });
    const added = [manifest, color].filter((el) => !el.isConnected);
    head.append(...added);
    let stopped = false;
    let watcher: PerformanceObserver | undefined;
    const workers = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (workers && window.isSecureContext) {
      const script = new URL(`${WORKER_URL}?u=${encodeURIComponent(userId)}`, location.origin).href;
      // Files loaded before this user's worker controlled the page are named to it once it runs.
      const missed = workers.controller?.scriptURL !== script;
      workers
        .register(script, { scope: WORKER_SCOPE })
        .then(activeWorker)
        .then((worker) => {
          if (!worker) return;
          // The worker claims the pages open when it starts; a page whose document was made in
          // the meantime (its navigation began before, on a busy phone) asks to be claimed.
          if (!workers.controller) worker.postMessage({ type: 'dme:claim' });
          const urls = [...(pageNotSeen(missed) ? [location.href] : []), ...notSeen(performance.getEntriesByType('resource'))];
          if (urls.length > 0) worker.postMessage({ type: 'dme:keep', urls });
          if (!stopped) watcher = nameLateFiles(worker);
        })
        .catch(() => undefined);
    }
    return () => {
      stopped = true;
      watcher?.disconnect();
      for (const el of added) el.remove();
    };
  }, [userId]);
}

/**
 * The files the worker never saw: a file it handled has a `workerStart`, one loaded before it
 * controlled the page has 0. Which, and not whether the page is controlled when the driver app
 * starts: on a busy phone the worker can take control between the page's first files and the app.
 */
function notSeen(entries: PerformanceEntryList): string[] {
  return entries.filter((e) => !((e as PerformanceResourceTiming).workerStart > 0)).map((e) => e.name);
}

/** Whether the page itself was loaded past the worker (its navigation's timing, where the browser gives it). */
function pageNotSeen(missed: boolean): boolean {
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return nav ? !(nav.workerStart > 0) : missed;
}

/**
 * A file the page asked for before the worker took control but that arrived after it ran (a
 * screen's chunk or an API read still on its way, common on a busy phone) is missing from the
 * first list: each such file is named to the worker as it arrives.
 */
function nameLateFiles(worker: ServiceWorker): PerformanceObserver | undefined {
  if (typeof PerformanceObserver === 'undefined') return undefined;
  const observer = new PerformanceObserver((list) => {
    const urls = notSeen(list.getEntries());
    if (urls.length > 0) worker.postMessage({ type: 'dme:keep', urls });
  });
  try {
    observer.observe({ type: 'resource' });
  } catch {
    return undefined;
  }
  return observer;
}

/** The registration's worker once it runs (a new one is waited for until it has taken over). */
function activeWorker(reg: ServiceWorkerRegistration): Promise<ServiceWorker | null> {
  const coming = reg.installing ?? reg.waiting;
  if (!coming) return Promise.resolve(reg.active);
  return new Promise((resolve) => {
    const onChange = () => {
      if (coming.state === 'activated') resolve(coming);
      else if (coming.state === 'redundant') resolve(reg.active);
      else return;
      coming.removeEventListener('statechange', onChange);
    };
    coming.addEventListener('statechange', onChange);
  });
}
