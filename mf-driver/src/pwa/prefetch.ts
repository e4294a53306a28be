import { useEffect } from 'react';

/** Stops already asked for on this page: each is fetched once per visit, not on every render. */
const asked = new Set<string>();

/** The detail URL of a stop, exactly as the order page's API client reads it (features/orders/api.ts). */
export function stopUrl(id: string): string {
  return `/api/driver/orders/${encodeURIComponent(id)}`;
}

/**
 * Fetches each stop's order while the phone is online, so that the service worker keeps its
 * answer and the order's page opens offline later in the day (issue 28, part 4a). One request at
 * a time (the screen's own reads come first); a stop already fetched on this page is not fetched
 * again. Nothing happens offline; where no worker controls the page yet (the first visit), it
 * waits until one does (the answer would not be kept before). For the driver's lists (Today); the answers themselves are not used here.
 */
export function usePrefetchStops(ids: readonly string[]): void {
  const key = ids.join('\n');
  useEffect(() => {
    const sw = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!sw) return undefined;
    let cancelled = false;
    const run = async () => {
      for (const id of key.split('\n').filter((x) => x && !asked.has(x))) {
        if (cancelled || !navigator.onLine) return;
        asked.add(id);
        await fetch(stopUrl(id), { credentials: 'same-origin' }).then(
          (res) => {
            if (!res.ok) asked.delete(id);
          },
          () => asked.delete(id),
        );
      }
    };
    // On the first visit the worker takes control only after the page has loaded: then.
    const whenControlled = () => void run();
    if (sw.controller) void run();
    else sw.addEventListener('controllerchange', whenControlled, { once: true });
    return () => {
      cancelled = true;
      sw.removeEventListener('controllerchange', whenControlled);
    };
  }, [key]);
}

/** Forgets which stops were fetched (tests). */
export function resetPrefetchedStops(): void {
  asked.clear();
}
