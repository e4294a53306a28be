import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import { renderHook } from '@testing-library/react';
import { baseApi, errorMessage, fieldErrors, LIVE_START_DELAY_MS, liveEventOf, listBusy, loaded, newIdempotencyKey, UNAUTHORIZED_EVENT, useLiveUpdates, useResetApiOnLeave } from './index';

const api = baseApi.injectEndpoints({
  endpoints: (b) => ({
    thing: b.query<{ ok: boolean }, string>({ query: (path) => path }),
    signIn: b.mutation<unknown, { username: string }>({ query: (body) => ({ url: '/auth/login', method: 'POST', body }) }),
  }),
});

function store() {
  return configureStore({ reducer: { [baseApi.reducerPath]: baseApi.reducer }, middleware: (g) => g().concat(baseApi.middleware) });
}

function answer(status: number, body?: unknown) {
  const fetchMock = vi.fn(async (_req: Request) =>
    new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('base api', () => {
  it('calls /api on the same origin with the session cookie', async () => {
    const fetchMock = answer(200, { ok: true });
    const s = store();
    const res = await s.dispatch(api.endpoints.thing.initiate('/users'));
    expect(res.data).toEqual({ ok: true });
    const req = fetchMock.mock.calls[0]![0];
    expect(new URL(req.url).pathname).toBe('/api/users');
    expect(req.credentials).toBe('same-origin');
  });

  it(`turns any 401 into the window event ${UNAUTHORIZED_EVENT}`, async () => {
    answer(401, { type: 'about:blank', title: 'Unauthorized', status: 401 });
    const seen = vi.fn();
    window.addEventListener(UNAUTHORIZED_EVENT, seen);
    await store().dispatch(api.endpoints.thing.initiate('/orders'));
    window.removeEventListener(UNAUTHORIZED_EVENT, seen);
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it('does not for other errors, nor for a failed sign-in', async () => {
    const seen = vi.fn();
    window.addEventListener(UNAUTHORIZED_EVENT, seen);
    answer(403, { type: 'about:blank', title: 'Forbidden', status: 403 });
    await store().dispatch(api.endpoints.thing.initiate('/x'));
    answer(401, { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'Invalid username or password.' });
    await store().dispatch(api.endpoints.signIn.initiate({ username: 'a' }));
    window.removeEventListener(UNAUTHORIZED_EVENT, seen);
    expect(seen).not.toHaveBeenCalled();
  });

  it('reads the message of a problem+json error and its field errors', async () => {
    answer(400, { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Invalid input.', errors: [{ field: 'zipcode', message: 'Zipcode must be at least 6 characters.' }] });
    const res = await store().dispatch(api.endpoints.thing.initiate('/y'));
    expect(errorMessage(res.error)).toBe('Zipcode must be at least 6 characters.');
    expect(fieldErrors(res.error)).toEqual([{ name: 'zipcode', errors: ['Zipcode must be at least 6 characters.'] }]);
    expect(errorMessage({ status: 409, data: { detail: 'Username is already taken.' } })).toBe('Username is already taken.');
    expect(errorMessage({ status: 'FETCH_ERROR', error: 'TypeError' })).toMatch(/cannot be reached/);
    expect(errorMessage(undefined, 'fallback')).toBe('fallback');
  });
});

describe('useResetApiOnLeave', () => {
  it("drops a remote's cached data when its app leaves (sign-out) or the user changes", async () => {
    answer(200, { ok: true });
    const s = store();
    await s.dispatch(api.endpoints.thing.initiate('/cart'));
    const cached = () => Object.keys(s.getState().api.queries).length;
    expect(cached()).toBe(1);
    const hook = renderHook(({ id }) => useResetApiOnLeave(s, id), { initialProps: { id: 'user-a' } });
    expect(cached()).toBe(1);
    hook.rerender({ id: 'user-b' });
    expect(cached()).toBe(0);
    await s.dispatch(api.endpoints.thing.initiate('/cart'));
    hook.unmount();
    expect(cached()).toBe(0);
  });
});

describe('newIdempotencyKey', () => {
  it('is a fresh v4 UUID each time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(200);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('liveEventOf (the live stream, read without zod)', () => {
  const id = '6f1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b';
  it('keeps a well-formed change and drops anything else', () => {
    expect(liveEventOf(JSON.stringify({ kind: 'order', orderId: id, orderType: 'RENT', status: 'DELIVERED', at: '2026-11-24T04:00:00.000Z' }))).toEqual({
      kind: 'order',
      orderId: id,
      orderType: 'RENT',
      status: 'DELIVERED',
      at: '2026-11-24T04:00:00.000Z',
    });
    expect(liveEventOf(JSON.stringify({ kind: 'payment', orderId: id, at: 'x' }))).toEqual({ kind: 'payment', orderId: id, orderType: null, status: null, at: 'x' });
    for (const bad of ['not json', 'null', '[]', JSON.stringify({ kind: 'secret', orderId: id, at: 'x' }), JSON.stringify({ kind: 'order', at: 'x' })]) {
      expect(liveEventOf(bad), bad).toBeUndefined();
    }
  });
});

/** The browser's EventSource, recorded (a unit test of the hook's own logic). */
class RecordingEventSource extends EventTarget {
  static opened: RecordingEventSource[] = [];
  closed = false;
  constructor(readonly url: string) {
    super();
    RecordingEventSource.opened.push(this);
  }
  close() {
    this.closed = true;
  }
}

describe('useLiveUpdates', () => {
  function setup(readyState: DocumentReadyState) {
    vi.useFakeTimers();
    RecordingEventSource.opened = [];
    vi.stubGlobal('EventSource', RecordingEventSource);
    const state = vi.spyOn(document, 'readyState', 'get').mockReturnValue(readyState);
    const dispatch = vi.fn();
    return { dispatch, state };
  }
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('opens the stream only once the page has loaded, then reads the screen again', () => {
    const { dispatch, state } = setup('loading');
    renderHook(() => useLiveUpdates(dispatch));
    vi.advanceTimersByTime(1000);
    expect(RecordingEventSource.opened).toHaveLength(0);
    state.mockReturnValue('complete');
    window.dispatchEvent(new Event('load'));
    vi.advanceTimersByTime(LIVE_START_DELAY_MS - 1);
    expect(RecordingEventSource.opened).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(RecordingEventSource.opened.map((s) => s.url)).toEqual(['/api/events']);
    // Opened (and after every reconnection): what changed meanwhile is read again, once.
    RecordingEventSource.opened[0]!.dispatchEvent(new Event('open'));
    vi.advanceTimersByTime(200);
    expect(dispatch).toHaveBeenCalledTimes(1);
    expect(dispatch.mock.calls[0]![0]).toEqual(baseApi.util.invalidateTags(['Order', 'Payment']));
  });

  it('refetches on a change, folding changes that come together', () => {
    const { dispatch } = setup('complete');
    const heard = vi.fn();
    renderHook(() => useLiveUpdates(dispatch, heard));
    vi.advanceTimersByTime(LIVE_START_DELAY_MS);
    const source = RecordingEventSource.opened[0]!;
    const change = { kind: 'order', orderId: '3f1c2b9e-8f8a-4d6b-9a59-1f3c1b2a7e10', orderType: 'BUY', status: 'PAID', at: '2026-11-24T01:00:00.000Z' };
    source.dispatchEvent(new MessageEvent('change', { data: JSON.stringify(change) }));
    source.dispatchEvent(new MessageEvent('change', { data: JSON.stringify(change) }));
    source.dispatchEvent(new MessageEvent('change', { data: 'not json' }));
    vi.advanceTimersByTime(200);
    expect(heard).toHaveBeenCalledTimes(2);
    expect(dispatch).toHaveBeenCalledTimes(1);
  });

  it('never opens when the screen leaves before the page has loaded, and closes when it leaves after', () => {
    const first = setup('loading');
    const early = renderHook(() => useLiveUpdates(first.dispatch));
    early.unmount();
    window.dispatchEvent(new Event('load'));
    vi.advanceTimersByTime(LIVE_START_DELAY_MS * 2);
    expect(RecordingEventSource.opened).toHaveLength(0);
    first.state.mockReturnValue('complete');
    const late = renderHook(() => useLiveUpdates(first.dispatch));
    vi.advanceTimersByTime(LIVE_START_DELAY_MS);
    late.unmount();
    expect(RecordingEventSource.opened[0]!.closed).toBe(true);
  });
});

describe('loaded (what a page shows of a query)', () => {
  const order = { order: { id: 'a' } };
  it('is false before the first answer and when the first answer failed', () => {
    expect(loaded({ data: undefined, currentData: undefined, error: undefined })).toBe(false);
    expect(loaded({ data: undefined, currentData: undefined, error: { status: 404 } })).toBe(false);
  });
  it('is true once loaded, and still true when a refetch of the same argument fails (the page stays as it was)', () => {
    expect(loaded({ data: order, currentData: order, error: undefined })).toBe(true);
    expect(loaded({ data: order, currentData: order, error: { status: 'FETCH_ERROR' } })).toBe(true);
  });
  it("is false when another argument failed: the previous argument's data is not shown as this one's", () => {
    expect(loaded({ data: order, currentData: undefined, error: { status: 404 } })).toBe(false);
  });
  it('is true while another argument loads (the previous one shows until its answer)', () => {
    expect(loaded({ data: order, currentData: undefined, error: undefined })).toBe(true);
  });
});

describe('listBusy (when a list masks its rows)', () => {
  const rows = { items: [] };
  it('while it loads rows it does not have for its argument: the first load, another tab, search or page', () => {
    expect(listBusy({ isFetching: true, currentData: undefined })).toBe(true);
  });
  it('not while it refreshes the rows it shows (a live event), nor once loaded', () => {
    expect(listBusy({ isFetching: true, currentData: rows })).toBe(false);
    expect(listBusy({ isFetching: false, currentData: rows })).toBe(false);
    expect(listBusy({ isFetching: false, currentData: undefined })).toBe(false);
  });
  it('not while an endless list loads its next page (its button says so)', () => {
    expect(listBusy({ isFetching: true, currentData: undefined, isFetchingNextPage: true })).toBe(false);
  });
});
