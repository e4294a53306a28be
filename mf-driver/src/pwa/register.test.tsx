import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import { useDriverPwa } from './register';
import { resetPrefetchedStops, usePrefetchStops } from './prefetch';

function Driver({ id }: { id: string }) {
  useDriverPwa(id);
  return null;
}

function Stops({ ids }: { ids: string[] }) {
  usePrefetchStops(ids);
  return null;
}

function stubWorkers(controller: { scriptURL: string } | null = null) {
  const active = { postMessage: vi.fn() };
  const register = vi.fn(async () => ({ active, installing: null, waiting: null }));
  const container = Object.assign(new EventTarget(), { register, controller });
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
  // Workers need a secure context (https, or localhost).
  Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
  return { register, active, container };
}

/** The page's timings: how long after it started the worker handled the navigation and each file (0: never). */
function timings({ navigation, files }: { navigation: number; files: Array<[string, number]> }) {
  vi.spyOn(performance, 'getEntriesByType').mockImplementation(((type: string) =>
    type === 'navigation' ? [{ name: location.href, workerStart: navigation }] : type === 'resource' ? files.map(([name, workerStart]) => ({ name, workerStart })) : []) as unknown as typeof performance.getEntriesByType);
}

afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.unstubAllGlobals();
  resetPrefetchedStops();
});

describe('the driver app on the page (useDriverPwa)', () => {
  it("links the manifest and the theme colour while it is there, and registers the user's worker for /admin/", async () => {
    const { register, active } = stubWorkers();
    const view = render(<Driver id="u-1" />);
    expect(document.head.querySelector('link[rel="manifest"]')?.getAttribute('href')).toBe('/remotes/mf-driver/driver.webmanifest');
    expect(document.head.querySelector('meta[name="theme-color"]')?.getAttribute('content')).toBe('#0b6e79');
    await waitFor(() => expect(register).toHaveBeenCalledWith(`${location.origin}/remotes/mf-driver/sw.js?u=u-1`, { scope: '/admin/' }));
    // Its first visit: what the page loaded before the worker ran is named to it.
    await waitFor(() => expect(active.postMessage).toHaveBeenCalledWith({ type: 'dme:keep', urls: expect.arrayContaining([location.href]) }));
    // Not yet controlled once the worker runs (its document was made while it started): it is asked to claim the page.
    expect(active.postMessage).toHaveBeenCalledWith({ type: 'dme:claim' });
    view.unmount();
    expect(document.head.querySelector('link[rel="manifest"]')).toBeNull();
    expect(document.head.querySelector('meta[name="theme-color"]')).toBeNull();
  });

  it('names to the worker a file the page asked for before it ran that arrives after (a late chunk or read), not one the worker handled', async () => {
    let seen: ((list: { getEntries(): Array<Partial<PerformanceResourceTiming>> }) => void) | undefined;
    const disconnect = vi.fn();
    vi.stubGlobal(
      'PerformanceObserver',
      class {
        constructor(cb: typeof seen) {
          seen = cb;
        }
        observe() {}
        disconnect = disconnect;
      },
    );
    const { active } = stubWorkers({ scriptURL: `${location.origin}/remotes/mf-driver/sw.js?u=u-3` });
    timings({ navigation: 2.5, files: [] });
    const view = render(<Driver id="u-3" />);
    await waitFor(() => expect(seen).toBeDefined());
    expect(active.postMessage).not.toHaveBeenCalled();
    const late = `${location.origin}/remotes/mf-driver/static/js/today.123.js`;
    seen!({ getEntries: () => [{ name: late, workerStart: 0 }, { name: `${location.origin}/api/driver/today`, workerStart: 12.5 }] });
    expect(active.postMessage).toHaveBeenCalledWith({ type: 'dme:keep', urls: [late] });
    // Only what the worker never saw: nothing is named when it handled everything.
    seen!({ getEntries: () => [{ name: `${location.origin}/api/auth/me`, workerStart: 3 }] });
    expect(active.postMessage).toHaveBeenCalledTimes(1);
    view.unmount();
    expect(disconnect).toHaveBeenCalled();
  });

  it('names nothing to a worker that saw the page and its files', async () => {
    timings({ navigation: 4.2, files: [['/main.1.js', 5.1], ['/api/auth/me', 7.3]] });
    const { register, active } = stubWorkers({ scriptURL: `${location.origin}/remotes/mf-driver/sw.js?u=u-2` });
    render(<Driver id="u-2" />);
    await waitFor(() => expect(register).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 10));
    expect(active.postMessage).not.toHaveBeenCalled();
  });

  it('names the page and the files loaded past the worker even when it took control before the driver app started (a busy phone)', async () => {
    timings({ navigation: 0, files: [['/main.1.js', 0], ['/api/auth/me', 0], ['/remotes/mf-driver/app.2.js', 9.8]] });
    const { active } = stubWorkers({ scriptURL: `${location.origin}/remotes/mf-driver/sw.js?u=u-4` });
    render(<Driver id="u-4" />);
    await waitFor(() => expect(active.postMessage).toHaveBeenCalledWith({ type: 'dme:keep', urls: [location.href, '/main.1.js', '/api/auth/me'] }));
  });
});

describe('fetching the stops for offline (usePrefetchStops)', () => {
  it('fetches each stop once, only while online under a worker', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    stubWorkers({ scriptURL: 'x' });
    const view = render(<Stops ids={['a', 'b/c']} />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(fetchMock.mock.calls.map((c) => (c as unknown[])[0])).toEqual(['/api/driver/orders/a', '/api/driver/orders/b%2Fc']);
    view.rerender(<Stops ids={['a', 'b/c', 'd']} />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    expect((fetchMock.mock.calls[2] as unknown[])[0]).toBe('/api/driver/orders/d');
  });

  it('waits for a worker to keep the answers: on a first visit it fetches once one takes control', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const { container } = stubWorkers(null);
    render(<Stops ids={['a']} />);
    await new Promise((r) => setTimeout(r, 10));
    expect(fetchMock).not.toHaveBeenCalled();
    container.controller = { scriptURL: 'x' };
    container.dispatchEvent(new Event('controllerchange'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect((fetchMock.mock.calls[0] as unknown[])[0]).toBe('/api/driver/orders/a');
  });
});
