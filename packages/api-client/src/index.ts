import { useEffect } from 'react';
import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { LIVE_EVENTS_PATH, LIVE_KINDS, problemMessage } from '@dme/contracts/browser';
import type { LiveEvent } from '@dme/contracts';

/** Fired on any 401: the session ended (logout elsewhere, expiry, deactivation). The shell listens. */
export const UNAUTHORIZED_EVENT = 'dme:unauthorized';

const rawBaseQuery = fetchBaseQuery({ baseUrl: '/api', credentials: 'same-origin' });

export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const result = await rawBaseQuery(args, api, extra);
  const url = typeof args === 'string' ? args : args.url;
  // A failed sign-in is a 401 too, but it does not end a session.
  if (result.error?.status === 401 && !url.startsWith('/auth/login') && typeof window !== 'undefined') {
    window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT));
  }
  return result;
};

/**
 * The RTK Query base API. Every app (the shell and each remote) bundles its own copy and its own
 * store, and injects its endpoints with list and item tags so that lists refresh at once after a
 * change.
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['User', 'Employee', 'Me', 'Bin', 'Product', 'Stock', 'Cart', 'Order', 'Payment', 'Report', 'Message'],
  endpoints: () => ({}),
});

/** The message to show for a failed call: the server's problem detail or field messages. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (!error || typeof error !== 'object') return fallback;
  const e = error as { status?: unknown; data?: unknown; error?: unknown };
  if (e.status === 'FETCH_ERROR') return 'The server cannot be reached. Check your connection and try again.';
  if (e.data !== undefined) return problemMessage(e.data, fallback);
  if (typeof e.error === 'string') return e.error;
  return fallback;
}

/**
 * Whether a query has something to show for its argument: loaded, and not failed with nothing
 * loaded for this argument. A page already loaded whose refetch fails (a live update's, a
 * change's) keeps what it shows, and what it holds open (a dialog, a form's edits), instead of an
 * error screen: it shows `RefreshFailed` over it. Another argument's data (the unit before this
 * one) never counts once this one has failed.
 */
export function loaded<Q extends { data?: unknown; currentData?: unknown; error?: unknown }>(q: Q): q is Q & { data: NonNullable<Q['data']> } {
  return q.data !== undefined && q.data !== null && (q.error === undefined || q.currentData !== undefined);
}

/**
 * Whether a list shows itself busy (its rows masked, clicks on them held): while it loads rows it
 * does not have for its argument yet (the first load, another tab, search or page), not while it
 * refreshes the rows it shows (a live event's refetch: at a busy shop one every few seconds) — a
 * click on a row is never lost to a refresh. Loading more of an endless list is its button's.
 */
export function listBusy(q: { isFetching: boolean; currentData?: unknown; isFetchingNextPage?: boolean }): boolean {
  return q.isFetching && q.currentData === undefined && !q.isFetchingNextPage;
}

/** Field errors of a 400 answer, shaped for antd's form.setFields. */
export function fieldErrors(error: unknown): Array<{ name: string; errors: string[] }> {
  const data = (error as { data?: { errors?: Array<{ field: string; message: string }> } } | undefined)?.data;
  const byField = new Map<string, string[]>();
  for (const e of data?.errors ?? []) byField.set(e.field, [...(byField.get(e.field) ?? []), e.message]);
  return [...byField].map(([name, errors]) => ({ name, errors }));
}

/**
 * For a remote's app: its cached server data belongs to the signed-in user, so it is dropped when
 * the app leaves the page (sign-out, or the session ended) or the user changes.
 */
export function useResetApiOnLeave(store: { dispatch: (action: ReturnType<typeof baseApi.util.resetApiState>) => unknown }, userId: string): void {
  useEffect(
    () => () => {
      store.dispatch(baseApi.util.resetApiState());
    },
    [store, userId],
  );
}

/**
 * A v4 UUID for an Idempotency-Key header (checkout, payment confirmation): crypto.randomUUID
 * needs a secure context; this does not.
 */
export function newIdempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * A `change` message of the live stream, checked by hand: the contracts' zod schema would bring
 * zod into every app's first screen (the customer's JS budget, DESIGN §12).
 */
export function liveEventOf(data: string): LiveEvent | undefined {
  try {
    const v = JSON.parse(data) as Partial<Record<keyof LiveEvent, unknown>>;
    if (!v || typeof v !== 'object' || typeof v.orderId !== 'string' || typeof v.at !== 'string') return undefined;
    if (!(LIVE_KINDS as readonly unknown[]).includes(v.kind)) return undefined;
    return {
      kind: v.kind as LiveEvent['kind'],
      orderId: v.orderId,
      orderType: v.orderType === 'BUY' || v.orderType === 'RENT' ? v.orderType : null,
      status: typeof v.status === 'string' ? (v.status as LiveEvent['status']) : null,
      at: v.at,
    };
  } catch {
    return undefined;
  }
}

/**
 * Live updates (issue 10): listens to the gateway's event stream (server-sent events, filtered
 * per user and role on the server) and refetches what is on screen when an order, payment or
 * request changes: the Order and Payment tags are invalidated, so every mounted query of them
 * (lists and details) loads again. Changes arriving together are folded into one refetch.
 * EventSource reconnects by itself after a drop; `onChange` also hears each event (e.g. a page
 * that keeps its own state).
 *
 * The stream opens a moment after the page has loaded (issue 13: its request would otherwise
 * compete with the first screen's on a slow phone), and every time it (re)opens the screen is
 * read again: a change made before it was open, or while it was down, is not missed.
 */
export function useLiveUpdates(
  dispatch: (action: ReturnType<typeof baseApi.util.invalidateTags>) => unknown,
  onChange?: (event: LiveEvent) => void,
): void {
  useEffect(() => {
    if (typeof EventSource === 'undefined') return undefined;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        dispatch(baseApi.util.invalidateTags(['Order', 'Payment']));
      }, 150);
    };
    const listener = (message: MessageEvent<string>) => {
      const event = liveEventOf(message.data);
      if (!event) return;
      onChange?.(event);
      refresh();
    };
    const open = () => {
      source = new EventSource(LIVE_EVENTS_PATH);
      source.addEventListener('change', listener);
      source.addEventListener('open', refresh);
    };
    const start = afterPageLoad(open);
    return () => {
      start.cancel();
      source?.removeEventListener('change', listener);
      source?.removeEventListener('open', refresh);
      source?.close();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [dispatch, onChange]);
}

/**
 * A second after the document has loaded (its load event comes before a remote's screen has even
 * drawn its pictures, so the screen's own requests still go first).
 */
export const LIVE_START_DELAY_MS = 1000;

/** Runs `fn` LIVE_START_DELAY_MS after the document has loaded (or after now, if it has). */
export function afterPageLoad(fn: () => void): { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = () => {
    timer = setTimeout(fn, LIVE_START_DELAY_MS);
  };
  if (typeof document === 'undefined' || document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
  return {
    cancel() {
      window.removeEventListener('load', later);
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
