import { SCREEN_READY_EVENT } from '@dme/ui';
import { DECODE_LIMIT_MS, firstPicture, SSR_ID, timeout } from './first-screen-paint';

/*
 * The hand-over from the gateway's server-rendered first screen (`#ssr`, issue 13: mobile LCP).
 *
 * The page a signed-in customer opens at /dashboard already holds the screen, drawn on the server
 * from the same answers the app reads: it is on screen as soon as the HTML and the first picture
 * have arrived, without the scripts. It is `inert` (a copy to look at; the app's own screen is the
 * one to use) and the app renders beside it into `#root`, hidden by the page's CSS while `#ssr`
 * exists. Once the app's screen has its data (the screen announces it), an error to show, another
 * path, or after HANDOVER_LIMIT_MS in any case, the copy is removed: the app's screen, drawn with
 * the same markup, takes its place without a visible change.
 */

/** Longest wait for the app's screen before the copy goes anyway. */
export const HANDOVER_LIMIT_MS = 15_000;

let pending: { path: string; stop: () => void } | undefined;

/** Starts waiting for the app's screen (called once, before the app renders). */
export function startHandover(doc: Document = document): void {
  if (!doc.getElementById(SSR_ID) || pending) return;
  const onReady = () => void handOver(doc);
  window.addEventListener(SCREEN_READY_EVENT, onReady);
  const timer = setTimeout(onReady, HANDOVER_LIMIT_MS);
  pending = {
    path: doc.location?.pathname ?? '/',
    stop: () => {
      window.removeEventListener(SCREEN_READY_EVENT, onReady);
      clearTimeout(timer);
    },
  };
}

/** The path the copy shows, while it is on screen. */
export function firstScreenPath(): string | undefined {
  return pending?.path;
}

/** Removes the copy, once the app's first picture is decoded (no blank frame where it was). */
export async function handOver(doc: Document = document): Promise<void> {
  const p = pending;
  if (!p) return;
  pending = undefined;
  p.stop();
  const root = doc.getElementById('root');
  const img = root ? firstPicture(root) : null;
  if (img) await Promise.race([img.decode().catch(() => undefined), timeout(DECODE_LIMIT_MS)]);
  doc.getElementById(SSR_ID)?.remove();
}
