import { afterEach, describe, expect, it, vi } from 'vitest';
import { ME_URL, USER_TYPES } from '@dme/contracts';
import { announceScreenReady } from '@dme/ui';
import { markupShape } from '@dme/ui/testing';
import { AppLayout } from './layout/AppLayout';
import { firstScreenPath, handOver, HANDOVER_LIMIT_MS, startHandover } from './first-screen';
import { whenFirstScreenPainted } from './first-screen-paint';
import { renderFrame } from '../ssr/first-screen';
import { makeUser, renderWithShell, storeUser } from './test/utils';

describe("the server-rendered first screen's frame", () => {
  it.each(USER_TYPES)("is the app's own frame for a %s (the menu, the selected entry, the user), with the screen inside", (userType) => {
    const user = { ...makeUser(userType), firstName: 'Ana <i>', lastName: 'Cruz & Co' };
    storeUser(user);
    const path = userType === 'CUSTOMER' ? '/dashboard' : '/admin/warehouse-bins';
    const { container } = renderWithShell(<AppLayout user={user}><p>the screen</p></AppLayout>, path);
    const html = renderFrame(path, { [ME_URL]: { user, permissions: [] } }, '<p>the screen</p>');
    expect(html).toBeDefined();
    expect(markupShape(html!)).toBe(markupShape(container.querySelector('.dme-frame')!));
    expect(html).toContain('Ana &lt;i&gt;');
  });

  it('draws nothing without a profile', () => {
    expect(renderFrame('/dashboard', {}, '<p>x</p>')).toBeUndefined();
    expect(renderFrame('/dashboard', { [ME_URL]: { user: { id: 'nope' } } }, '<p>x</p>')).toBeUndefined();
  });
});

describe('the hand-over from the server-rendered copy to the app', () => {
  afterEach(async () => {
    await handOver();
    document.body.innerHTML = '';
    vi.useRealTimers();
  });

  const page = () => {
    document.body.innerHTML = '<div id="ssr" inert><p>copy</p></div><div id="root"><p>app</p></div>';
    startHandover();
  };

  it('keeps the copy until the screen announces it has its data, then removes it', async () => {
    page();
    expect(firstScreenPath()).toBe(window.location.pathname);
    await Promise.resolve();
    expect(document.getElementById('ssr')).not.toBeNull();
    announceScreenReady();
    await vi.waitFor(() => expect(document.getElementById('ssr')).toBeNull());
    expect(document.getElementById('root')!.textContent).toBe('app');
    expect(firstScreenPath()).toBeUndefined();
  });

  it('removes the copy after HANDOVER_LIMIT_MS when no screen announces itself', async () => {
    vi.useFakeTimers();
    page();
    vi.advanceTimersByTime(HANDOVER_LIMIT_MS - 1);
    await Promise.resolve();
    expect(document.getElementById('ssr')).not.toBeNull();
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(document.getElementById('ssr')).toBeNull());
  });

  it("starts the app once the copy's first picture is painted, or at once when it failed", async () => {
    document.body.innerHTML = '<div id="ssr" inert><img fetchpriority="high" src="/api/uploads/1.png"></div><div id="root"></div>';
    const img = document.querySelector('img')!;
    // happy-dom loads no pictures: this one arrives when the test says so.
    let arrived = false;
    Object.defineProperty(img, 'complete', { get: () => arrived });
    img.decode = () => Promise.resolve();
    let started = false;
    const painted = whenFirstScreenPainted().then(() => (started = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(started).toBe(false); // the picture has not arrived
    arrived = true;
    img.dispatchEvent(new Event('load'));
    await painted;
    expect(started).toBe(true);

    document.body.innerHTML = '<div id="ssr" inert><img fetchpriority="high" src="/api/uploads/missing.png"></div><div id="root"></div>';
    const broken = document.querySelector('img')!;
    Object.defineProperty(broken, 'complete', { get: () => false });
    const failing = whenFirstScreenPainted();
    broken.dispatchEvent(new Event('error'));
    // At once, not after FIRST_PAINT_LIMIT_MS.
    await expect(Promise.race([failing.then(() => 'started'), new Promise((r) => setTimeout(() => r('waited'), 300))])).resolves.toBe('started');
  });

  it('does nothing on a page without a copy, and the app starts at once', async () => {
    document.body.innerHTML = '<div id="root"></div>';
    startHandover();
    expect(firstScreenPath()).toBeUndefined();
    await expect(whenFirstScreenPainted()).resolves.toBeUndefined();
  });
});
