import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { DEMO_PASSWORD, expect } from './fixtures';
import { makePng, openedDialog, signInAs, uniqueName } from './helpers';
import { handoverBody } from '@dme/testing/handover';

/** Steps the back-office journeys share (fulfilment.spec.ts, rental.spec.ts, money.spec.ts). */

export interface Made {
  id: string;
  name: string;
  serials: string[];
}

/** An API client of the running stack signed in as `username` (its own cookie jar). */
export async function apiSignedIn(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, username: string, password = DEMO_PASSWORD): Promise<APIRequestContext> {
  const c = await playwright.request.newContext({ baseURL });
  const res = await c.post('/api/auth/login', { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
  return c;
}

/** A product of the test's own (for rent or for sale) with serial-coded stock, made through the API as the superadmin. */
export async function product(api: APIRequestContext, type: 'FOR_SALE' | 'FOR_RENT', price: string, stock: number, extra: Record<string, unknown> = {}): Promise<Made> {
  const up = await api.post('/api/uploads', { multipart: { image: { name: 'p.png', mimeType: 'image/png', buffer: makePng() } } });
  const { imagePath } = (await up.json()) as { imagePath: string };
  const bin = (await (await api.post('/api/warehouse-bins', { data: { name: uniqueName('Bin'), description: 'fulfilment e2e' } })).json()) as { bin: { id: string } };
  const name = `${type === 'FOR_SALE' ? 'Pulse Oximeter' : 'Walker'} ${uniqueName('x').slice(2)}`;
  const res = await api.post('/api/products', { data: { brand: 'Omron', name, description: 'For the fulfilment journey', type, image: imagePath, price, damageCharges: '150.00', ...extra } });
  expect(res.status(), await res.text()).toBe(201);
  const { product: p } = (await res.json()) as { product: { id: string } };
  const added = await api.post('/api/stocks', { data: { productID: p.id, warehouseBinID: bin.bin.id, quantity: stock } });
  expect(added.status()).toBe(201);
  const { items } = (await added.json()) as { items: Array<{ serialCode: string }> };
  return { id: p.id, name, serials: items.map((i) => i.serialCode) };
}

export async function pdfText(path: string): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(await readFile(path)), disableFontFace: true }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return parts.join('\n');
}

/**
 * The browser contexts of a journey with several people: `newContext` opens one more (its own
 * cookies, downloads accepted), to pass to `signedIn`; `close` closes them all (in a `finally`).
 */
export function browserContexts(browser: Browser, baseURL: string | undefined): { newContext: () => Promise<BrowserContext>; close: () => Promise<void> } {
  const contexts: BrowserContext[] = [];
  return {
    newContext: async () => {
      const c = await browser.newContext({ baseURL, acceptDownloads: true });
      contexts.push(c);
      return c;
    },
    close: async () => {
      for (const c of contexts) await c.close();
    },
  };
}

export async function signedIn(browserContext: () => Promise<BrowserContext>, username: string, home: string, password?: string): Promise<Page> {
  const page = await (await browserContext()).newPage();
  await signInAs(page, username, password, home);
  return page;
}

/**
 * The customer rents from the cart (issue 10): on a product page with the quantity and the days
 * chosen, adds it to the cart; in the cart its To Rent row shows `total`; Rent Now, the address
 * confirmed; then opens the new order from the rentals list. Its id and number.
 */
export async function rentFromCart(shopper: Page, productName: string, total: string): Promise<{ orderId: string; orderNumber: string }> {
  await shopper.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(shopper.getByText('Added to cart!')).toBeVisible();
  await shopper.getByRole('menuitem', { name: 'Cart' }).click();
  const toRent = shopper.getByRole('region', { name: 'To Rent Products' });
  await expect(toRent.getByRole('row', { name: new RegExp(productName) })).toContainText(total);
  await toRent.getByRole('button', { name: 'Rent Now' }).click();
  await (await openedDialog(shopper, 'Review Address')).getByRole('button', { name: 'Confirm Order' }).click();
  await expect(shopper.getByText('Order submitted successfully!')).toBeVisible();
  await shopper.waitForURL('**/orders/rentals');
  await shopper.getByRole('row').filter({ hasText: /ORD-\d{8}-\d{6}/ }).getByRole('link', { name: 'View' }).click();
  await shopper.waitForURL(/\/orders\/rentals\/[0-9a-f-]{36}$/);
  const orderId = shopper.url().split('/').pop()!;
  const orderNumber = ((await shopper.getByRole('heading', { name: /^Order ORD-/ }).textContent()) ?? '').replace(/^Order /, '').trim();
  return { orderId, orderNumber };
}

/** The staff detail of an order, found through its list tab and the search box, as the warehouse does it. */
export async function openStaffOrder(page: Page, kind: 'Purchased' | 'Rentals', tab: string, orderNumber: string): Promise<void> {
  await page.getByRole('menuitem', { name: 'Orders' }).click();
  await page.getByRole('menuitem', { name: kind, exact: true }).click();
  await page.getByRole('tab', { name: tab }).click();
  await page.getByLabel('Search orders').fill(orderNumber);
  await page.getByLabel('Search orders').press('Enter');
  await page.getByRole('link', { name: `View ${orderNumber}` }).click();
  await expect(page.getByRole('heading', { name: `Order ${orderNumber}` })).toBeVisible();
}

/**
 * Reloads `page`, as a person refreshing would, until `check` passes (up to `timeout`). Each reload
 * first waits for the screen to be drawn (`drawn`, up to 30 s): on a busy machine a screen takes
 * seconds to draw, which is not the state being missing; only then does `check` read it, with its
 * own short timeouts, so a screen that is drawn but not there yet is reloaded again.
 */
export async function reloadUntil(page: Page, drawn: Locator, check: () => Promise<void>, timeout = 120_000): Promise<void> {
  await expect(async () => {
    await page.reload();
    await expect(drawn).toBeVisible({ timeout: 30_000 });
    await check();
  }).toPass({ timeout });
}

/** An order's page (the customer's or the staff's) drawn: its heading. */
export const orderHeading = (page: Page) => page.getByRole('heading', { name: /^Order ORD-/ });

/** Waits (reloading, as a person would) until the order's status tag shows `status`. */
export async function untilStatus(page: Page, status: string): Promise<void> {
  await reloadUntil(page, orderHeading(page), () => expect(page.getByText(status, { exact: true }).first()).toBeVisible({ timeout: 2000 }));
}

/** Accounting takes the payment due on an order: opens it from the list and confirms the dialog. */
export async function takePayment(page: Page, orderNumber: string, action: string, invoice: string, receipt: string, tab?: string): Promise<void> {
  await page.goto('/admin/payments');
  // A rental's balance waits under its own tab (For Full Payment); the first payments under Pending.
  if (tab) await page.getByRole('tab', { name: tab }).click();
  // Its row: the search matches numbers that contain this one too (…0000021), so the exact number.
  const row = page.getByRole('row', { name: new RegExp(`^${orderNumber} `) });
  // The order service's event makes the payment payable a moment after the warehouse confirmed.
  await reloadUntil(page, page.getByLabel('Search payments'), async () => {
    await page.getByLabel('Search payments').fill(orderNumber);
    await page.getByLabel('Search payments').press('Enter');
    // The list answers the search in well under a second on a quiet machine, in seconds on a busy one.
    await expect(row).toContainText(action, { timeout: 15_000 });
  });
  await row.getByRole('link', { name: 'View' }).click();
  await page.getByRole('button', { name: action }).click();
  const dialog = page.getByRole('dialog', { name: action });
  // Both numbers are required, with the spec's messages.
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('Please enter invoice number!')).toBeVisible();
  await expect(dialog.getByText('Please enter receipt number!')).toBeVisible();
  await dialog.getByLabel('Invoice Number').fill(invoice);
  await dialog.getByLabel('Receipt Number').fill(receipt);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Payment recorded.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
}

/**
 * Takes a placed rental through the staff's and the accounting's steps by API as the superadmin:
 * confirmed, its first day paid, its one line packed with `serial` (TO_SHIP); with `deliver`, out
 * for delivery by the superadmin's scan and delivered with a hand-over.
 */
export async function shipRental(
  admin: APIRequestContext,
  order: { id: string; orderNumber: string; products: Array<{ id: string }> },
  serial: string,
  opts: { deliver: boolean },
): Promise<void> {
  expect((await admin.post(`/api/orders/${order.id}/transitions`, { data: { to: 'FOR_PAYMENT' } })).status()).toBe(200);
  let paymentId = '';
  await expect
    .poll(async () => {
      const list = (await (await admin.get(`/api/payments?search=${order.orderNumber}`)).json()) as { items: Array<{ id: string; nextAction: string | null }> };
      paymentId = list.items[0]?.id ?? '';
      return list.items[0]?.nextAction ?? null;
      // The payment opens from the order service's event: seconds on a busy machine (takePayment waits as long).
    }, { timeout: 60_000 })
    .toBe('PAY_PARTIAL');
  const paid = await admin.post(`/api/payments/${paymentId}/confirm`, { headers: { 'idempotency-key': randomUUID() }, data: { invoiceNumber: `INV-${randomUUID().slice(0, 8)}`, receiptNumber: 'OR-1', note: '' } });
  expect(paid.status(), await paid.text()).toBe(200);
  await expect
    .poll(async () => ((await (await admin.get(`/api/orders/${order.id}`)).json()) as { order: { status: string } }).order.status, { timeout: 60_000 })
    .toBe('PREPARING');
  const packed = await admin.post(`/api/orders/${order.id}/transitions`, { data: { to: 'TO_SHIP', packing: [{ lineID: order.products[0]!.id, serialCodes: [serial] }] } });
  expect(packed.status(), await packed.text()).toBe(200);
  if (!opts.deliver) return;
  const scanned = await admin.post('/api/driver/scan', { data: { purpose: 'DELIVERY', code: order.orderNumber } });
  expect(scanned.status(), await scanned.text()).toBe(200);
  expect(((await scanned.json()) as { order: { status: string } }).order.status).toBe('OUT_FOR_DELIVERY');
  expect(((await handOverApi(admin, order.id)) as { order: { status: string } }).order.status).toBe('DELIVERED');
}

/**
 * The hand-over at the door by API (issue 28), as `driver` (who has the order, or takes a pick-up
 * waiting for one): every unit packed for the order, signed by Maria Santos; its answer.
 */
export async function handOverApi(driver: APIRequestContext, orderId: string, leg: 'DELIVERY' | 'PICKUP' = 'DELIVERY', over: Record<string, unknown> = {}): Promise<unknown> {
  const read = await driver.get(`/api/driver/orders/${orderId}`);
  expect(read.status(), await read.text()).toBe(200);
  const { order } = (await read.json()) as { order: Parameters<typeof handoverBody>[0] };
  const res = await driver.post(`/api/driver/orders/${orderId}/handover`, { data: { ...handoverBody(order, leg), ...over } });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/**
 * A driver's scan at the door by typed order number (issue 28): the order does not move; the phone
 * opens the hand-over screen of the leg.
 */
export async function doorScan(page: Page, orderNumber: string, leg: 'delivery' | 'pickup'): Promise<void> {
  await page.getByRole('button', { name: 'Scan Order' }).click();
  const dialog = page.getByRole('dialog', { name: 'Scan Order' });
  const input = dialog.getByLabel('Order QR or order number');
  await input.fill(orderNumber);
  await input.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/admin/for-${leg}/[0-9a-f-]{36}/handover$`));
  await expect(page.getByRole('heading', { name: `Hand-over ${orderNumber}` })).toBeVisible();
}

/**
 * The hand-over screen filled in as at the door: every unit checked, who signs and their relation,
 * the confirmation, a signature drawn on the pad with the mouse; then "Confirm hand-over".
 */
export async function signHandover(page: Page, name: string, relation = 'Patient'): Promise<void> {
  const units = page.getByRole('group', { name: 'Serials handed over' });
  for (const box of await units.getByRole('checkbox').all()) await box.check();
  await page.getByLabel('Name of the person signing').fill(name);
  await page.getByLabel('Relation to the patient').selectOption({ label: relation });
  await page.getByRole('checkbox', { name: 'They confirm this' }).check();
  const pad = page.getByRole('img', { name: 'Signature' });
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (const [dx, dy] of [[60, -30], [110, 25], [170, -20], [230, 30]] as const) await page.mouse.move(box.x + 20 + dx, box.y + box.height / 2 + dy, { steps: 4 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Confirm hand-over' }).click();
}

/** A new driver made by the superadmin (a name of their own, for tests that must not share the demo driver's day). */
export async function newDriver(admin: APIRequestContext): Promise<{ id: string; username: string; password: string; name: string }> {
  const username = uniqueName('driver');
  // A first name of letters only, unique enough to pick in a list of drivers.
  const letters = [...randomUUID().replace(/[^a-f]/g, '')].slice(0, 8).join('');
  const firstName = `${letters.charAt(0).toUpperCase()}${letters.slice(1)}`;
  const password = 'driver-pass-1';
  const upload = await admin.post('/api/uploads', { multipart: { image: { name: 'a.png', mimeType: 'image/png', buffer: makePng() } } });
  const { imagePath } = (await upload.json()) as { imagePath: string };
  const res = await admin.post('/api/employees', {
    data: {
      userType: 'DRIVER', position: 'Driver', username, password, firstName, middleName: '', lastName: 'Santos', suffix: '',
      birthDate: '1990-01-01', gender: 'MALE', contactNumber: '0917', email: `${username}@example.com`, address: '1 Main St', city: 'Makati',
      state: 'Metro Manila', zipcode: '120000', image: imagePath,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { user: { id: string } }).user.id;
  // The order service learns of the new driver from identity's event.
  await expect
    .poll(async () => ((await (await admin.get('/api/assignable-drivers')).json()) as { items: Array<{ id: string }> }).items.some((d) => d.id === id), { timeout: 20_000 })
    .toBe(true);
  return { id, username, password, name: `${firstName} Santos` };
}
