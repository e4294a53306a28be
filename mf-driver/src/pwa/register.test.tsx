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

afterEach(() => {
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
    view.unmount();
    expect(document.head.querySelector('link[rel="manifest"]')).toBeNull();
    expect(document.head.querySelector('meta[name="theme-color"]')).toBeNull();
  });

  it('names nothing to a worker that already controls the page', async () => {
    const { register, active } = stubWorkers({ scriptURL: `${location.origin}/remotes/mf-driver/sw.js?u=u-2` });
    render(<Driver id="u-2" />);
    await waitFor(() => expect(register).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 10));
    expect(active.postMessage).not.toHaveBeenCalled();
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
