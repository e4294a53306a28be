import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { registerByApi, signInAs, uniqueName } from './helpers';
import { apiSignedIn, product } from './journey';

/*
 * Issue 27: staff land on what needs them, tabs say how many rows they hold, and the tab and the
 * search live in the address, so a detail's Back, the browser's Back and a reload keep them.
 */

/** The rows of the list under the tabs (antd's table rows; its "No data" row is not one). */
const rows = (page: Page) => page.getByRole('main').locator('tbody > tr.dme-table-row');

/** Each tab of a tablist as [its label, its count]. */
async function tabCounts(page: Page, list: string): Promise<Array<[string, number]>> {
  const names = await page.getByRole('tablist', { name: list }).getByRole('tab').allTextContents();
  return names.map((n) => {
    const m = /^(.*\S)\s+(\d+)$/.exec(n.trim());
    if (!m) throw new Error(`tab "${n}" shows no count`);
    return [m[1]!, Number(m[2])];
  });
}

test.describe('tabs with counts, lists kept in the address (issue 27)', () => {
  test("each tab's count equals the rows it shows for a search; tab and search survive a detail's Back, the browser's Back and a reload", async ({ page, playwright, baseURL }) => {
    test.setTimeout(120_000);
    // A customer of this test's own, with a last name no one else has: three purchases, one of
    // them moved on to For Payment.
    const lastName = uniqueName('Tabs');
    const customerApi = await playwright.request.newContext({ baseURL });
    const customer = await registerByApi(customerApi, undefined, { lastName });
    expect((await customerApi.post('/api/auth/login', { data: { username: customer.username, password: customer.password } })).status()).toBe(200);
    const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
    const sale = await product(admin, 'FOR_SALE', '12.00', 5);
    const address = { deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '121000', note: '' };
    const placed: Array<{ id: string; orderNumber: string }> = [];
    for (let i = 0; i < 3; i++) {
      const res = await customerApi.post('/api/orders', { headers: { 'idempotency-key': randomUUID() }, data: { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: sale.id, quantity: 1 }], ...address } });
      expect(res.status(), await res.text()).toBe(201);
      placed.push(((await res.json()) as { order: { id: string; orderNumber: string } }).order);
    }
    const moved = await admin.post(`/api/orders/${placed[0]!.id}/transitions`, { data: { to: 'FOR_PAYMENT' } });
    expect(moved.status(), await moved.text()).toBe(200);

    await signInAs(page, 'warehouseadmin', undefined, '/admin/warehouse-bins');
    await page.goto('/admin/orders/purchased');
    await page.getByLabel('Search orders').fill(lastName);
    await page.getByLabel('Search orders').press('Enter');
    await expect(page).toHaveURL(new RegExp(`/admin/orders/purchased\\?status=PENDING&search=${lastName}$`));
    const tabs = page.getByRole('tablist', { name: 'Order status' });
    await expect(tabs.getByRole('tab', { selected: true })).toHaveText('Pending 2');
    await expect(tabs.getByRole('tab', { name: 'For Payment 1' })).toBeVisible();
    await expect(rows(page)).toHaveCount(2);

    // Every tab: its count is the number of rows it shows for this search.
    const counted = await tabCounts(page, 'Order status');
    expect(counted.reduce((n, [, c]) => n + c, 0), 'the three orders, each under one tab').toBe(3);
    for (const [label, n] of counted) {
      await tabs.getByRole('tab', { name: `${label} ${n}`, exact: true }).click();
      await expect(tabs.getByRole('tab', { selected: true })).toHaveText(`${label} ${n}`);
      await expect(rows(page), `${label}: ${n} rows`).toHaveCount(n);
    }

    // The For Payment tab, an order's page, and back: the tab and the search are as they were.
    await tabs.getByRole('tab', { name: 'For Payment 1' }).click();
    await expect(page).toHaveURL(new RegExp(`status=FOR_PAYMENT&search=${lastName}$`));
    await rows(page).getByRole('link', { name: `View ${placed[0]!.orderNumber}` }).click();
    await expect(page.getByRole('heading', { name: new RegExp(placed[0]!.orderNumber) })).toBeVisible();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`status=FOR_PAYMENT&search=${lastName}$`));
    await expect(page.getByLabel('Search orders')).toHaveValue(lastName);
    await expect(tabs.getByRole('tab', { selected: true })).toHaveText('For Payment 1');
    await expect(rows(page)).toHaveCount(1);

    // The browser's Back walks back through the tabs opened; a reload keeps what is shown.
    await page.goBack(); // the order's page
    await page.goBack(); // the For Payment tab, before the order was opened
    await page.goBack(); // the tab opened before it
    await expect(page).not.toHaveURL(/status=FOR_PAYMENT/);
    await expect(page).toHaveURL(new RegExp(`search=${lastName}$`));
    await page.goForward();
    await expect(page).toHaveURL(new RegExp(`status=FOR_PAYMENT&search=${lastName}$`));
    await page.reload();
    await expect(tabs.getByRole('tab', { selected: true })).toHaveText('For Payment 1');
    await expect(page.getByLabel('Search orders')).toHaveValue(lastName);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page)).toContainText(placed[0]!.orderNumber);
    await Promise.all([admin.dispose(), customerApi.dispose()]);
  });

  test('accounting lands on its waiting work: "Needs you now" counts open the payments list on the tab that holds them', async ({ page, playwright, baseURL }) => {
    // A payment of this test's own waits: a purchase confirmed by staff asks the customer to pay.
    const customerApi = await playwright.request.newContext({ baseURL });
    const customer = await registerByApi(customerApi);
    expect((await customerApi.post('/api/auth/login', { data: { username: customer.username, password: customer.password } })).status()).toBe(200);
    const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
    const sale = await product(admin, 'FOR_SALE', '9.00', 2);
    const res = await customerApi.post('/api/orders', {
      headers: { 'idempotency-key': randomUUID() },
      data: { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: sale.id, quantity: 1 }], deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '121000', note: '' },
    });
    expect(res.status(), await res.text()).toBe(201);
    const order = ((await res.json()) as { order: { id: string; orderNumber: string } }).order;
    const moved = await admin.post(`/api/orders/${order.id}/transitions`, { data: { to: 'FOR_PAYMENT' } });
    expect(moved.status(), await moved.text()).toBe(200);

    await signInAs(page, 'accounting', undefined, '/admin/payments');
    const needs = page.getByRole('region', { name: 'Needs you now' });
    await expect(needs).toBeVisible();
    // Counted by the server, then each is a link to the list filtered to it.
    const toTake = needs.getByRole('link', { name: /^\d+ payments? pending$/ });
    await expect(toTake).toBeVisible();
    await toTake.click();
    await expect(page).toHaveURL(/\/admin\/payments\?status=PENDING$/);
    await expect(page.getByRole('tablist', { name: 'Payment status' }).getByRole('tab', { selected: true })).toHaveText(/^Pending \d+$/);
    // This test's payment is on that tab (made from the order's event: searched until it is there).
    await expect(async () => {
      await page.getByLabel('Search payments').fill(order.orderNumber);
      await page.getByLabel('Search payments').press('Enter');
      await expect(rows(page)).toHaveCount(1, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole('tablist', { name: 'Payment status' }).getByRole('tab', { selected: true })).toHaveText('Pending 1');
    // Only the role's home shows it: a payment's page does not.
    await rows(page).first().getByRole('link').first().click();
    await expect(page).toHaveURL(/\/admin\/payments\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('region', { name: 'Needs you now' })).toHaveCount(0);
    await Promise.all([admin.dispose(), customerApi.dispose()]);
  });

  test('the warehouse home counts what waits for packing and the units between rentals, each linking to its list', async ({ page }) => {
    await signInAs(page, 'warehouseadmin', undefined, '/admin/warehouse-bins');
    const needs = page.getByRole('region', { name: 'Needs you now' });
    await expect(needs.getByRole('link', { name: /^\d+ rental orders? to pack$/ })).toBeVisible();
    await expect(needs.getByRole('link', { name: /^\d+ units? to clean$/ })).toBeVisible();
    await needs.getByRole('link', { name: /^\d+ units? to clean$/ }).click();
    await expect(page).toHaveURL(/\/admin\/units\?column=TO_CLEAN$/);
    await expect(page.getByRole('tab', { selected: true })).toHaveText(/^To clean \d+$/);
  });
});
