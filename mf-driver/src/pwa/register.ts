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
 * before the worker controlled it: it names them to the worker, which keeps them too.
 * The shell's sign-out removes the worker and its caches (shell/src/session/offline.ts).
 */
export function useDriverPwa(userId: string): void {
  useEffect(() => {
    const head = document.head;
    const manifest = head.querySelector('link[rel="manifest"]') ?? Object.assign(document.createElement('link'), { rel: 'manifest', href: MANIFEST_URL });
    const color = head.querySelector('meta[name="theme-color"]') ?? Object.assign(document.createElement('meta'), { name: 'theme-color', content: THEME_COLOR });
    const added = [manifest, color].filter((el) => !el.isConnected);
    head.append(...added);
    const workers = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (workers && window.isSecureContext) {
      const script = new URL(`${WORKER_URL}?u=${encodeURIComponent(userId)}`, location.origin).href;
      // Files loaded before this user's worker controlled the page are named to it once it runs.
      const missed = workers.controller?.scriptURL !== script;
      workers
        .register(script, { scope: WORKER_SCOPE })
        .then(activeWorker)
        .then((worker) => {
          if (missed) worker?.postMessage({ type: 'dme:keep', urls: [location.href, ...performance.getEntriesByType('resource').map((e) => e.name)] });
        })
        .catch(() => undefined);
    }
    return () => {
      for (const el of added) el.remove();
    };
  }, [userId]);
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
