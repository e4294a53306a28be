/**
 * The hand-over from a server-rendered first screen to the app (issue 13: mobile LCP). The
 * gateway draws a signed-in customer's /dashboard into the page it serves (`#ssr`); the app
 * renders the same screen hidden beside it, and its screen announces when it has what the server
 * drew (its reads answered): the shell then shows the app and drops the server's copy.
 */
export const SCREEN_READY_EVENT = 'dme:screen-ready';

/**
 * The `elementtiming` name a screen gives its largest picture: the browser then reports when it
 * is painted, and the shell starts the app after the server-rendered copy's first paint.
 */
export const FIRST_PICTURE_TIMING = 'first-picture';

/** Called by a screen that has its first data on screen (success, empty or error alike). */
export function announceScreenReady(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(SCREEN_READY_EVENT));
}
