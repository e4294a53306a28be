/** How many times, and how far apart, the workers are looked for again after unregistering them. */
const RECHECKS = 4;
const RECHECK_MS = 250;

/**
 * Forgets what this browser kept for offline use (issue 28, part 4a): the driver app's service
 * worker (mf-driver/src/pwa/sw.ts) keeps the driver's pages and answers; after a sign-out (or an
 * ended session) nothing of them may be left for the next person on the phone. The workers are
 * told first (the one controlling this page too), so that they keep nothing more, and
 * unregistered; then every cache of this origin goes (only that worker makes them). Best effort,
 * never fails: the sign-out goes on whatever happens here.
 */
export function forgetOfflineCopies(): Promise<void> {
  const workers = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  const signOut = { type: 'dme:sign-out' };
  workers?.controller?.postMessage(signOut);
  const unregisterAll = async (sw: ServiceWorkerContainer): Promise<void> => {
    for (let look = 0; look <= RECHECKS; look++) {
      // A registration the page asked for just before (a driver screen opened a moment ago, its
      // register() still queued behind) can come back after the unregister: look again.
      if (look > 0) await new Promise((r) => setTimeout(r, RECHECK_MS));
      const regs = await sw.getRegistrations();
      if (regs.length === 0) return;
      await Promise.all(
        regs.map((r) => {
          r.active?.postMessage(signOut);
          return r.unregister();
        }),
      );
    }
  };
  const unregistered = workers ? unregisterAll(workers) : Promise.resolve();
  return unregistered
    .catch(() => undefined)
    .then(() => (typeof caches === 'undefined' ? undefined : caches.keys().then((keys) => Promise.all(keys.map((k) => caches.delete(k))))))
    .then(
      () => undefined,
      () => undefined,
    );
}
