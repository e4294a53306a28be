import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { registerByApi, signInAs } from './helpers';
import { apiSignedIn, handOverApi, newDriver, product, shipRental, signHandover } from './journey';
import { deliveredDaysAgo } from './db';
import { chunksToKeep } from '../mf-driver/src/pwa/rules';

/*
 * Issue 28: the driver keeps working without signal. Hand-overs signed offline wait on the phone
 * (IndexedDB), survive a reload while still offline, and are sent once the phone is back online:
 * each order changes exactly once. One the server refuses meanwhile is shown to the driver with
 * the reason.
 */
const PHONE = { width: 390, height: 844 };

type Placed = { id: string; orderNumber: string; products: Array<{ id: string }> };

async function rental(admin: APIRequestContext, shopper: APIRequestContext, productId: string, serial: string): Promise<Placed> {
  const placed = await shopper.post('/api/orders', {
    headers: { 'idempotency-key': randomUUID() },
    data: { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: productId, quantity: 1, noOfRentalDays: 1 }], deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '123456', note: '' },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const { order } = (await placed.json()) as { order: Placed };
  await shipRental(admin, order, serial, { deliver: false });
  return order;
}

/** Opens an order's hand-over from the driver's list by a typed scan (the phone finds it at the door by itself when offline). */
async function scanToHandover(page: Page, orderNumber: string, leg: 'delivery' | 'pickup'): Promise<void> {
  await page.getByRole('button', { name: 'Scan Order' }).click();
  const dialog = page.getByRole('dialog', { name: 'Scan Order' });
  const input = dialog.getByLabel('Order QR or order number');
  await input.fill(orderNumber);
  await input.press('Enter');
  await expect(page.getByRole('heading', { name: `Hand-over ${orderNumber}` })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/admin/for-${leg}/[0-9a-f-]{36}/handover$`));
}

test.describe('the driver without signal (issue 28)', () => {
  test('two deliveries and a pick-up signed offline survive a reload, are sent once online (each order changes once), and the one refused meanwhile is shown with its reason', async ({ browser, baseURL, playwright, page }) => {
    test.setTimeout(300_000);
    const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
    const made = await product(admin, 'FOR_RENT', '12.00', 3);
    const customer = await registerByApi(page.request);
    const shopper = await apiSignedIn(playwright, baseURL, customer.username, customer.password);
    // A driver of this test's own (the demo driver's day is shared with other tests), and another one.
    const [driver, other] = [await newDriver(admin), await newDriver(admin)];
    const driverApi = await apiSignedIn(playwright, baseURL, driver.username, driver.password);
    const me = { id: driver.id };
    const [a, b, c] = [await rental(admin, shopper, made.id, made.serials[0]!), await rental(admin, shopper, made.id, made.serials[1]!), await rental(admin, shopper, made.id, made.serials[2]!)];
    // a and b: out for delivery with the driver. c: delivered, due, for return, planned for the driver to collect today.
    for (const o of [a, b, c]) expect((await driverApi.post('/api/driver/scan', { data: { purpose: 'DELIVERY', code: o.orderNumber } })).status()).toBe(200);
    await handOverApi(driverApi, c.id);
    await deliveredDaysAgo(c.id, 1);
    expect((await admin.post(`/api/orders/${c.id}/transitions`, { data: { to: 'FOR_RETURN' } })).status()).toBe(200);
    const today = ((await (await driverApi.get('/api/driver/today')).json()) as { day: string }).day;
    expect((await admin.put(`/api/orders/${c.id}/assignment`, { data: { driverId: me.id, day: today } })).status()).toBe(200);

    // The phone loads its day and lists online (the app keeps them for offline), then loses signal.
    const context = await browser.newContext({ baseURL, viewport: PHONE, isMobile: true, hasTouch: true });
    const phone = await context.newPage();
    await signInAs(phone, driver.username, driver.password, '/admin/for-delivery');
    await phone.goto('/admin/today');
    for (const o of [a, b, c]) await expect(phone.getByRole('list', { name: 'Stops' })).toContainText(o.orderNumber);
    await expect.poll(() => phone.evaluate(async () => !!navigator.serviceWorker?.controller), { timeout: 40_000 }).toBe(true);
    // A moment online under the worker, as a driver's morning gives: the day's screen once more, and
    // each stop's order kept (Today fetches them for the phone) before the signal goes.
    await phone.reload();
    for (const o of [a, b, c]) await expect(phone.getByRole('list', { name: 'Stops' })).toContainText(o.orderNumber);
    await expect
      .poll(() => phone.evaluate(async (ids) => (await Promise.all(ids.map((id) => caches.match(`/api/driver/orders/${id}`)))).every(Boolean), [a.id, b.id, c.id]), {
        timeout: 40_000,
        message: "the stops' orders are kept on the phone",
      })
      .toBe(true);
    // And every driver screen's files (the worker keeps those the driver app's federation manifest
    // names once it has it: on a busy machine a moment after the screen shows).
    // Which files those are is the worker's own rule (chunksToKeep), applied to the manifest it kept.
    const origin = new URL(phone.url()).origin;
    await expect
      .poll(
        async () => {
          const manifest = await phone.evaluate(async () => (await caches.match('/remotes/mf-driver/mf-manifest.json'))?.json() ?? null);
          const files = chunksToKeep(manifest, origin);
          return files.length > 0 && phone.evaluate(async (urls) => (await Promise.all(urls.map((u) => caches.match(u)))).every(Boolean), files);
        },
        { timeout: 40_000, message: "the driver screens' files are kept on the phone" },
      )
      .toBe(true);
    await context.setOffline(true);

    // At each door, offline: the scan (on Today, opened from the phone's copy) opens the
    // hand-over; signing keeps it on the phone.
    for (const [o, leg, name] of [
      [a, 'delivery', 'Ana Cruz'],
      [b, 'delivery', 'Ben Cruz'],
      [c, 'pickup', 'Carla Cruz'],
    ] as const) {
      await phone.goto('/admin/today');
      await expect(phone.getByRole('list', { name: 'Stops' })).toContainText(o.orderNumber);
      await scanToHandover(phone, o.orderNumber, leg);
      await signHandover(phone, name);
      await expect(phone.getByText(/kept on this phone/).first()).toBeVisible();
    }
    const panel = phone.getByRole('region', { name: 'Waiting to send' });
    await expect(panel).toContainText('3 actions waiting to send');

    // Meanwhile staff give the pick-up to another driver: the phone's hand-over of it will be refused.
    expect((await admin.put(`/api/orders/${c.id}/assignment`, { data: { driverId: other.id, day: today } })).status()).toBe(200);

    // Reloaded while still offline: the screen comes back from the phone, and so does what waits.
    await phone.reload();
    await expect(phone.getByRole('region', { name: 'Waiting to send' })).toContainText('3 actions waiting to send');
    for (const o of [a, b]) expect(((await (await admin.get(`/api/orders/${o.id}`)).json()) as { order: { status: string } }).order.status).toBe('OUT_FOR_DELIVERY');

    // Back online: sent in order; a and b delivered exactly once; c refused, with the reason, until dismissed.
    await context.setOffline(false);
    const refusal = phone.getByRole('region', { name: 'Waiting to send' });
    await expect(refusal).toContainText(`Hand-over of ${c.orderNumber} (pick-up) was refused`, { timeout: 30_000 });
    await expect(refusal).toContainText('Only the driver who has this order can hand it over.');
    for (const [o, name] of [
      [a, 'Ana Cruz'],
      [b, 'Ben Cruz'],
    ] as const) {
      const { order } = (await (await admin.get(`/api/orders/${o.id}`)).json()) as {
        order: { status: string; orderTracker: Array<{ status: string }>; handovers: Array<{ recipientName: string; outcome: string }> };
      };
      expect(order.status).toBe('DELIVERED');
      expect(order.orderTracker.filter((t) => t.status === 'DELIVERED')).toHaveLength(1);
      expect(order.handovers.map((h) => [h.outcome, h.recipientName])).toEqual([['HANDED_OVER', name]]);
    }
    expect(((await (await admin.get(`/api/orders/${c.id}`)).json()) as { order: { status: string } }).order.status).toBe('FOR_RETURN');
    await refusal.getByRole('button', { name: `Dismiss: Hand-over of ${c.orderNumber} (pick-up)` }).click();
    await expect(phone.getByRole('region', { name: 'Waiting to send' })).toHaveCount(0);
    await context.close();
  });
});
