import { randomUUID } from 'node:crypto';
import { seriousViolations } from './axe';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { registerByApi, signInAs } from './helpers';
import { apiSignedIn, newDriver, product, shipRental, signHandover } from './journey';

/*
 * Issue 28: the driver's day on a phone. Staff assign orders to the driver for today; the driver
 * finds them on Today with what a stop needs (customer number, tap-to-call, maps), puts them in
 * their own order, takes one out, and hands it over at the door — every action on the phone's
 * screen, nothing scrolling sideways.
 */
const PHONE = { width: 390, height: 844 };

/** Every visible link and button of `scope` lies within the phone's width (nothing cut off or off-screen). */
async function actionsWithinWidth(page: Page, scope: Locator, where: string): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message: `${where} scrolls sideways` }).toBeLessThanOrEqual(0);
  const outside = await scope.evaluate((root) =>
    [...root.querySelectorAll('a[href], button, input, select, textarea, canvas')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && (r.left < -1 || r.right > window.innerWidth + 1);
      })
      .map((el) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`),
  );
  expect(outside, `${where}: actions outside the phone's width`).toEqual([]);
}

/** axe finds nothing serious or critical on the page as it is (a11y.spec audits the other screens). */
async function accessible(page: Page, where: string): Promise<void> {
  await page.waitForTimeout(400); // an opening animation
  const serious = (await seriousViolations(page)).map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
  expect(serious, `${where}: accessibility`).toEqual([]);
}

/** A rental of one unit placed by `customer`, packed by the superadmin: TO_SHIP, waiting for a driver. */
async function rentalToShip(admin: APIRequestContext, shopper: APIRequestContext, productId: string, serial: string) {
  const placed = await shopper.post('/api/orders', {
    headers: { 'idempotency-key': randomUUID() },
    data: { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: productId, quantity: 1, noOfRentalDays: 3 }], deliveryAddress: '5 Mabini St', deliveryCity: 'Quezon City', deliveryState: 'Metro Manila', deliveryZipcode: '110100', note: 'Blue gate, ring twice' },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const { order } = (await placed.json()) as { order: { id: string; orderNumber: string; products: Array<{ id: string }> } };
  await shipRental(admin, order, serial, { deliver: false });
  return order;
}

test.describe("the driver's day on a phone (issue 28)", () => {
  test('staff assign two orders to the driver; on Today the driver reorders them, calls, opens maps, takes one out and hands it over, all within the phone screen', async ({ browser, baseURL, playwright, page }) => {
    test.setTimeout(240_000);
    const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
    const walker = await product(admin, 'FOR_RENT', '15.00', 2);
    const customer = await registerByApi(page.request);
    const shopper = await apiSignedIn(playwright, baseURL, customer.username, customer.password);
    const first = await rentalToShip(admin, shopper, walker.id, walker.serials[0]!);
    const second = await rentalToShip(admin, shopper, walker.id, walker.serials[1]!);
    const customerNumber = ((await (await admin.get(`/api/orders/${first.id}`)).json()) as { order: { customer: { idNumber: string } } }).order.customer.idNumber;
    // A driver of this test's own: the demo driver's day is shared with other tests.
    const driver = await newDriver(admin);
    const driverApi = await apiSignedIn(playwright, baseURL, driver.username, driver.password);
    const me = { id: driver.id };
    const driverName = driver.name;

    // The warehouse assigns the first from its order page (today is the default day); the second by API.
    const staff = await (await browser.newContext({ baseURL })).newPage();
    await signInAs(staff, 'warehouseadmin', undefined, '/admin/warehouse-bins');
    await staff.goto(`/admin/orders/rentals/${first.id}`);
    await expect(staff.getByTestId('driver-line')).toHaveText('Driver: Any driver');
    await staff.getByRole('button', { name: 'Assign driver' }).click();
    const dialog = staff.getByRole('dialog', { name: 'Assign driver' });
    await accessible(staff, 'the assign driver dialog');
    await dialog.getByLabel('Driver').selectOption({ label: driverName });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(staff.getByTestId('driver-line')).toContainText(`Driver: ${driverName}, `);
    const today = ((await (await driverApi.get('/api/driver/today')).json()) as { day: string }).day;
    expect((await admin.put(`/api/orders/${second.id}/assignment`, { data: { driverId: me.id, day: today } })).status()).toBe(200);

    // The driver's phone: Today lists both, in the order they were planned.
    const phoneContext = await browser.newContext({ baseURL, viewport: PHONE, isMobile: true, hasTouch: true });
    const phone = await phoneContext.newPage();
    await signInAs(phone, driver.username, driver.password, '/admin/for-delivery');
    await phone.goto('/admin/today');
    await expect(phone.getByRole('heading', { level: 1, name: 'Today' })).toBeVisible();
    const stops = phone.getByRole('list', { name: 'Stops' });
    const stop = (orderNumber: string) => stops.getByRole('article').filter({ hasText: orderNumber });
    await expect(stop(first.orderNumber)).toBeVisible();
    await expect(stop(second.orderNumber)).toBeVisible();
    const card = stop(first.orderNumber);
    await expect(card).toContainText(customerNumber);
    await expect(card).toContainText('Blue gate, ring twice');
    await expect(card).not.toContainText(customer.id);
    await expect(card.getByRole('link', { name: /^Call / })).toHaveAttribute('href', 'tel:+639170001111');
    await expect(card.getByRole('link', { name: 'Open in Maps' })).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=5%20Mabini%20St/);
    await expect(card.getByRole('link', { name: 'Navigate' })).toHaveAttribute('href', /^geo:0,0\?q=5%20Mabini%20St/);
    await actionsWithinWidth(phone, phone.locator('main'), 'Today');
    await accessible(phone, 'Today on a phone');

    // The driver puts the second first; it stays so after a reload.
    const orderOfStops = () => stops.getByRole('article').locator('h2, h3').allInnerTexts();
    await stop(second.orderNumber).getByRole('button', { name: `Move ${second.orderNumber} up` }).click();
    await expect.poll(async () => (await orderOfStops()).map((t) => t.includes(second.orderNumber))).toEqual([true, false]);
    await phone.reload();
    await expect.poll(async () => (await orderOfStops()).map((t) => t.includes(second.orderNumber))).toEqual([true, false]);

    // At the warehouse the driver scans the first: out for delivery. The scanner fills the phone's width.
    await phone.getByRole('button', { name: 'Scan Order' }).click();
    const scanner = phone.getByRole('dialog', { name: 'Scan Order' });
    const input = scanner.getByLabel('Order QR or order number');
    await expect(input).toBeVisible();
    // Once its opening animation has ended.
    await expect.poll(async () => (await scanner.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(PHONE.width - 24);
    await input.fill(first.orderNumber);
    await input.press('Enter');
    await expect(scanner.getByText(`Order ${first.orderNumber} is out for delivery with you.`).first()).toBeVisible();
    await actionsWithinWidth(phone, scanner, 'the scanner');
    await scanner.getByRole('button', { name: 'Done' }).click();
    await expect(stop(first.orderNumber)).toContainText('Out for delivery');

    // For Delivery on the phone: the card's View is on screen; the detail's hand-over button too.
    await phone.goto('/admin/for-delivery');
    const row = phone.getByRole('row', { name: new RegExp(first.orderNumber) });
    await expect(row).toContainText(customerNumber);
    await actionsWithinWidth(phone, phone.locator('main'), 'For Delivery');
    await row.getByRole('link', { name: `View ${first.orderNumber}` }).click();
    await expect(phone.getByRole('heading', { name: `Order ${first.orderNumber}` })).toBeVisible();
    await actionsWithinWidth(phone, phone.locator('main'), 'the order');
    await phone.getByRole('link', { name: 'Record hand-over' }).click();
    await expect(phone.getByRole('heading', { name: `Hand-over ${first.orderNumber}` })).toBeVisible();
    await actionsWithinWidth(phone, phone.locator('main'), 'the hand-over');
    await accessible(phone, 'the hand-over on a phone');
    await signHandover(phone, 'Elena Torres');
    await expect(phone.getByText(`Order ${first.orderNumber} delivered to Elena Torres.`).first()).toBeVisible();

    // Delivered: off Today; the second is still there.
    await phone.goto('/admin/today');
    await expect(stop(second.orderNumber)).toBeVisible();
    await expect(stop(first.orderNumber)).toHaveCount(0);
    await phoneContext.close();
  });
});
