/**
 * The first paint of the gateway's server-rendered first screen (`#ssr`, issue 13: mobile LCP),
 * without any import: the shell's small start-up script (first-screen-boot.ts) waits for it
 * before it starts the app's script, and the hand-over (first-screen.ts) uses its helpers.
 */
export const SSR_ID = 'ssr';
/** Longest wait for the copy's first picture before the app starts anyway. */
export const FIRST_PAINT_LIMIT_MS = 1_000;
/** Longest wait for the app's first picture to be decoded at the hand-over. */
export const DECODE_LIMIT_MS = 500;

export const timeout = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const nextPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** The screen's largest picture: the one card picture fetched at high priority. */
export function firstPicture(root: ParentNode): HTMLImageElement | null {
  return root.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
}

/**
 * Resolves once the server-rendered screen has been painted with its first picture (at once when
 * the page has none): the app's start (parsing and running its script, rendering) then does not
 * hold back the first paint, which on a slow phone is what the customer waits for.
 */
export async function whenFirstScreenPainted(doc: Document = document): Promise<void> {
  const ssr = doc.getElementById(SSR_ID);
  if (!ssr) return;
  const img = firstPicture(ssr);
  await Promise.race([img ? picturePainted(img) : nextPaint(), timeout(FIRST_PAINT_LIMIT_MS)]);
}

type PaintEntry = PerformanceEntry & { element?: Element | null };

/**
 * Resolves once the picture is on screen. Chrome reports it: an element-timing entry for the
 * picture (the screen gives it `elementtiming`, @dme/ui FIRST_PICTURE_TIMING), or a
 * largest-contentful-paint entry for it. Where neither
 * is reported (other browsers), two frames after it is loaded and decoded.
 */
function picturePainted(img: HTMLImageElement): Promise<void> {
  const supported = typeof PerformanceObserver === 'undefined' ? [] : (PerformanceObserver.supportedEntryTypes ?? []);
  const types = ['element', 'largest-contentful-paint'].filter((t) => supported.includes(t));
  const observers: PerformanceObserver[] = [];
  return new Promise<void>((resolve) => {
    img.addEventListener('error', () => resolve(), { once: true });
    for (const type of types) {
      const observer = new PerformanceObserver((list) => {
        if (list.getEntries().some((e) => (e as PaintEntry).element === img)) resolve();
      });
      observer.observe({ type, buffered: true });
      observers.push(observer);
    }
    if (types.includes('element') && img.getAttribute('elementtiming')) return;
    const loaded = img.complete
      ? Promise.resolve()
      : new Promise<void>((done) => img.addEventListener('load', () => done(), { once: true }));
    void loaded
      .then(() => img.decode().catch(() => undefined))
      .then(nextPaint)
      .then(nextPaint)
      .then(resolve);
  }).finally(() => observers.forEach((o) => o.disconnect()));
}
