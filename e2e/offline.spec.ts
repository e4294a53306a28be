import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './chromium';
import { expect, test } from './fixtures';
import { registerByApi, signInAs } from './helpers';
import { apiSignedIn, product, shipRental } from './journey';
import { cacheRuleFor, lastPageKey, pageKey } from '../mf-driver/src/pwa/rules';

/*
 * Issue 28, part 4a: the driver's screens as an installable app that reads offline. On a phone the
 * driver opens Today once with signal; the app is installable and its service worker controls the
 * page; without signal a reload still shows Today with the stop, and the stop's order opens.
 * Signing out leaves no cache and no worker behind, and another role's screens are never served
 * from a cache.
 */
const PHONE = { width: 390, height: 844 };

/** The names of this origin's caches, and whether one of the driver's API caches holds `path`. */
function cacheState(page: Page, path?: string) {
  return page.evaluate(async (p) => {
    const names = await caches.keys();
    let holds = false;
    if (p) {
      for (const name of names.filter((n) => n.startsWith('dme-driver-api-'))) {
        const keys = await (await caches.open(name)).keys();
        if (keys.some((k) => new URL(k.url).pathname === p)) holds = true;
      }
    }
    return { names, holds };
  }, path);
}

/** The driver app's chunks (named by its federation manifest for `./app`) missing from the caches. */
async function driverChunksNotKept(): Promise<string[]> {
  const manifest = (await (await fetch('/remotes/mf-driver/mf-manifest.json')).json()) as { exposes: Array<{ assets: { js: { sync: string[]; async: string[] } } }> };
  const names = manifest.exposes.flatMap((e) => [...e.assets.js.sync, ...e.assets.js.async]);
  const missing: string[] = [];
  for (const name of names) if (!(await caches.match(`/remotes/mf-driver/${name}`))) missing.push(name);
  return missing;
}

/**
 * What the page in front of the driver loaded that the worker's rules keep (rules.ts: the page
 * itself, the shell's and the driver app's scripts and styles, the driver's API reads) and no
 * cache holds yet.
 * A reload without signal needs every one of them.
 */
async function loadedNotKept(page: Page): Promise<string[]> {
  const { href, origin, loaded } = await page.evaluate(() => ({
    href: location.href,
    origin: location.origin,
    loaded: performance.getEntriesByType('resource').map((e) => e.name),
  }));
  const wanted = [
    ...(cacheRuleFor(href, 'GET', 'navigate', origin) === 'none' ? [] : [[pageKey(href), lastPageKey(origin)]]),
    // Scripts, styles, JSON and API reads (the web app manifest and its icons the browser fetches itself, past the worker).
    ...[...new Set(loaded)].filter((url) => /\.(m?js|css|json)$|^\/api\//.test(new URL(url).pathname) && cacheRuleFor(url, 'GET', 'cors', origin) !== 'none').map((url) => [url]),
  ];
  return page.evaluate(async (lists) => {
    const missing: string[] = [];
    for (const keys of lists) {
      let held = false;
      for (const key of keys) if (await caches.match(key, { ignoreVary: true })) held = true;
      if (!held) missing.push(keys[0]!);
    }
    return missing;
  }, wanted);
}

test.describe('the driver app offline (issue 28, part 4a)', () => {
  test("installable on a phone; Today and the stop's order load offline after a reload; signing out leaves nothing; another role's screen is never served from a cache", async ({ browser, baseURL, playwright, page }) => {
    test.setTimeout(240_000);
    // A rental assigned to the driver for today (by API, as the superadmin).
    const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
    const walker = await product(admin, 'FOR_RENT', '15.00', 1);
    const customer = await registerByApi(page.request);
    const shopper = await apiSignedIn(playwright, baseURL, customer.username, customer.password);
    const placed = await shopper.post('/api/orders', {
      headers: { 'idempotency-key': randomUUID() },
      data: { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: walker.id, quantity: 1, noOfRentalDays: 3 }], deliveryAddress: '7 Rizal Ave', deliveryCity: 'Quezon City', deliveryState: 'Metro Manila', deliveryZipcode: '110100', note: 'Offline stop' },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const { order } = (await placed.json()) as { order: { id: string; orderNumber: string; products: Array<{ id: string }> } };
    await shipRental(admin, order, walker.serials[0]!, { deliver: false });
    const driverApi = await apiSignedIn(playwright, baseURL, 'driver');
    const me = ((await (await driverApi.get('/api/auth/me')).json()) as { user: { id: string } }).user;
    const today = ((await (await driverApi.get('/api/driver/today')).json()) as { day: string }).day;
    const assigned = await admin.put(`/api/orders/${order.id}/assignment`, { data: { driverId: me.id, day: today } });
    expect(assigned.status(), await assigned.text()).toBe(200);

    // The driver's phone. A persistent profile: Chromium never finds an app installable in an
    // incognito-like context, which every browser.newContext() is.
    const profile = await mkdtemp(join(tmpdir(), 'dme-e2e-driver-'));
    const phoneContext = await playwright.chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_EXECUTABLE,
      args: CHROMIUM_ARGS,
      headless: true,
      baseURL,
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    try {
      const phone = phoneContext.pages()[0] ?? (await phoneContext.newPage());
      await signInAs(phone, 'driver', undefined, '/admin/for-delivery');
      await phone.goto('/admin/today');
      await expect(phone.getByRole('heading', { level: 1, name: 'Today' })).toBeVisible();
      const stop = phone.getByRole('list', { name: 'Stops' }).getByRole('article').filter({ hasText: order.orderNumber });
      await expect(stop).toBeVisible();

      // (1) Installable: the manifest is linked, nothing stands in the way, and the worker controls the page.
      await expect(phone.locator('link[rel="manifest"]')).toHaveAttribute('href', '/remotes/mf-driver/driver.webmanifest');
      // Registered and running (on a busy machine the first install takes a while), then in control.
      await phone.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await expect
        .poll(() => phone.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? ''), { message: 'the worker controls the page', timeout: 40_000 })
        .toContain(`/remotes/mf-driver/sw.js?u=${me.id}`);
      const cdp = await phoneContext.newCDPSession(phone);
      await expect
        .poll(async () => ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> }).installabilityErrors.map((e) => e.errorId), { message: 'installability errors' })
        .toEqual([]);
      const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
      expect(manifest.errors).toEqual([]);
      // What the first visit loaded before the worker ran is kept too (Today's list).
      await expect.poll(async () => (await cacheState(phone, '/api/driver/today')).holds, { message: "Today's answer kept" }).toBe(true);

      // The stop's order, never opened: fetched with signal as usePrefetchStops (mf-driver/src/pwa)
      // does, so the worker keeps its answer; its screen's code was kept from the app's manifest.
      expect(await phone.evaluate((id) => fetch(`/api/driver/orders/${id}`).then((r) => r.status), order.id)).toBe(200);
      await expect.poll(async () => (await cacheState(phone, `/api/driver/orders/${order.id}`)).holds, { message: "the order's answer kept" }).toBe(true);
      await expect.poll(() => phone.evaluate(driverChunksNotKept), { message: "the driver app's chunks not kept yet" }).toEqual([]);
      // The page itself and everything it loaded (the shell's files, the session read): the reload
      // below is a navigation the worker answers from what it holds (on a busy machine it can still
      // be writing them when the answers above are kept).
      await expect.poll(() => loadedNotKept(phone), { message: 'the page and what it loaded not kept yet', timeout: 20_000 }).toEqual([]);

      // (2) No signal: a reload shows Today with the stop, and its order opens.
      await phoneContext.setOffline(true);
      await phone.reload();
      await expect(phone.getByRole('heading', { level: 1, name: 'Today' })).toBeVisible();
      await expect(stop).toBeVisible();
      await expect(stop).toContainText('Offline stop');
      await stop.getByRole('link', { name: 'Details' }).click();
      await expect(phone.getByRole('heading', { name: `Order ${order.orderNumber}` })).toBeVisible();
      // Also opened straight from its address, as a bookmark or a restarted app would.
      await phone.goto(`/admin/for-delivery/${order.id}`);
      await expect(phone.getByRole('heading', { name: `Order ${order.orderNumber}` })).toBeVisible();
      await phoneContext.setOffline(false);

      // (3) Signing out removes the driver's caches and the worker.
      await phone.goto('/admin/today');
      await expect(stop).toBeVisible();
      await phone.getByRole('button', { name: 'Logout' }).click();
      await phone.getByRole('button', { name: 'Yes' }).click();
      await phone.waitForURL('**/login');
      await expect.poll(async () => (await cacheState(phone)).names, { message: 'caches left after sign-out' }).toEqual([]);
      await expect
        .poll(() => phone.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).map((r) => `${r.scope} ${(r.active ?? r.waiting ?? r.installing)?.scriptURL ?? 'no worker'}`)), { message: 'workers left after sign-out' })
        .toEqual([]);
      // Offline, the driver's screen no longer opens from anything kept.
      await phoneContext.setOffline(true);
      const offlineAfterSignOut = await phone.goto('/admin/today').then(
        () => 'loaded',
        () => 'failed',
      );
      expect(offlineAfterSignOut).toBe('failed');
      await phoneContext.setOffline(false);
    } finally {
      await phoneContext.close();
      await rm(profile, { recursive: true, force: true });
    }

    // Another role (the warehouse admin) on a phone: no worker, no cache; offline, nothing loads.
    const warehouseContext = await browser.newContext({ baseURL, viewport: PHONE, isMobile: true, hasTouch: true });
    const staff = await warehouseContext.newPage();
    await signInAs(staff, 'warehouseadmin', undefined, '/admin/warehouse-bins');
    await expect(staff.getByRole('heading', { level: 1, name: 'Warehouse Bins' })).toBeVisible();
    await staff.waitForLoadState('networkidle');
    expect(await staff.locator('link[rel="manifest"]').count()).toBe(0);
    expect(await staff.evaluate(async () => ({ controlled: navigator.serviceWorker.controller !== null, workers: (await navigator.serviceWorker.getRegistrations()).length, caches: await caches.keys() }))).toEqual({
      controlled: false,
      workers: 0,
      caches: [],
    });
    await warehouseContext.setOffline(true);
    const offline = await staff.reload().then(
      () => 'loaded',
      () => 'failed',
    );
    expect(offline).toBe('failed');
    await expect(staff.getByRole('heading', { level: 1, name: 'Warehouse Bins' })).toHaveCount(0);
    await warehouseContext.setOffline(false);
  });
});
