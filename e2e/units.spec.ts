import { randomUUID } from 'node:crypto';
import { expect, test } from './fixtures';
import { registerByApi, signInAs, uniqueName } from './helpers';
import { apiSignedIn, handOverApi, product, reloadUntil, shipRental } from './journey';
import { deliveredDaysAgo } from './db';

test.describe('a unit between rentals (issue 26)', () => {
  test('a rental comes back OK; staff clean, inspect and put the unit away by scanning it on the board, then find it and read its whole history', async ({ page, browser, baseURL, playwright }) => {
    test.setTimeout(180_000);
    const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
    const concentrator = await product(admin, 'FOR_RENT', '45.00', 1, { inspectionChecklist: ['Filter replaced', 'Alarm tested'] });
    const code = concentrator.serials[0]!;
    const shelf = uniqueName('Shelf');
    expect((await admin.post('/api/warehouse-bins', { data: { name: shelf, description: 'clean units' } })).status()).toBe(201);

    // A customer rents it for a day; it is delivered, picked up a day later and marked OK.
    const who = await registerByApi(page.request);
    const api = await apiSignedIn(playwright, baseURL, who.username, who.password);
    const placed = await api.post('/api/orders', {
      headers: { 'idempotency-key': randomUUID() },
      data: {
        type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: concentrator.id, quantity: 1, noOfRentalDays: 1 }],
        deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '123456', note: '',
      },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const order = ((await placed.json()) as { order: { id: string; orderNumber: string; products: Array<{ id: string }> } }).order;
    await shipRental(admin, order, code, { deliver: true });
    await deliveredDaysAgo(order.id, 1);
    expect((await admin.post(`/api/orders/${order.id}/transitions`, { data: { to: 'FOR_RETURN' } })).status()).toBe(200);
    expect((await admin.post('/api/driver/scan', { data: { purpose: 'PICKUP', code: order.orderNumber } })).status()).toBe(200);
    await handOverApi(admin, order.id, 'PICKUP');
    const marked = await admin.post(`/api/orders/${order.id}/serials/${code}/return`, { data: { status: 'OK' } });
    expect(marked.status(), await marked.text()).toBe(200);

    // Staff: the board has it to clean; packing it now is refused, naming why.
    const staff = await (await browser.newContext({ baseURL })).newPage();
    await signInAs(staff, 'warehouseadmin', undefined, '/admin/warehouse-bins');
    await staff.getByRole('menuitem', { name: 'Units' }).click();
    await expect(staff.getByRole('heading', { level: 1, name: 'Units' })).toBeVisible();
    await expect(staff.getByRole('tab', { name: /^To clean \d+$/ })).toHaveAttribute('aria-selected', 'true');
    const refused = await admin.get(`/api/stocks/by-serial/${code}`);
    expect(((await refused.json()) as { item: { status: string } }).item.status).toBe('RETURNED');

    const scan = staff.getByRole('textbox', { name: 'Scan a unit' });
    // Scan: its next step opens; clean it.
    await scan.fill(code);
    await scan.press('Enter');
    const clean = staff.getByRole('dialog', { name: `Clean ${code}` });
    await clean.getByLabel('Note').fill('Wiped and disinfected');
    await clean.getByRole('button', { name: 'Cleaned', exact: true }).click();
    await expect(staff.getByText(`${code} is now cleaned (to inspect).`)).toBeVisible();
    await expect(clean).toBeHidden();

    // Scan again (the label's QR this time): the inspection, with the product's checklist.
    await scan.fill(JSON.stringify({ productID: concentrator.id, serialCode: code }));
    await scan.press('Enter');
    const inspect = staff.getByRole('dialog', { name: `Inspect ${code}` });
    await inspect.getByRole('radiogroup', { name: 'Filter replaced' }).getByText('Pass').click();
    await inspect.getByRole('radiogroup', { name: 'Alarm tested' }).getByText('Pass').click();
    await inspect.getByRole('button', { name: 'Save inspection' }).click();
    await expect(staff.getByText(`${code} is now inspected (to put away).`)).toBeVisible();

    // And again: put it away on a shelf.
    await scan.fill(code);
    await scan.press('Enter');
    const away = staff.getByRole('dialog', { name: `Put ${code} away` });
    await away.getByLabel('Bin').click();
    await away.getByLabel('Bin').fill(shelf);
    await staff.locator('.ant-select-dropdown:visible').getByText(shelf, { exact: true }).click();
    await away.getByRole('button', { name: 'Put away', exact: true }).click();
    await expect(staff.getByText(`${code} is now available.`)).toBeVisible();

    // Find it from the top bar: its page and its whole history, newest first.
    await staff.getByRole('search', { name: 'Find unit' }).getByRole('textbox', { name: 'Serial code' }).fill(code.toLowerCase());
    await staff.getByRole('search', { name: 'Find unit' }).getByRole('button', { name: 'Find' }).click();
    const heading = staff.getByRole('heading', { name: `Unit ${code}` });
    await expect(heading).toBeVisible();
    const entries = staff.getByTestId('custody-entry');
    // The hand-overs come from the order's events: on a busy machine the last may still be on its way.
    await reloadUntil(staff, heading, () => expect(entries).toHaveCount(10, { timeout: 3000 }));
    expect(await staff.locator('[data-testid="custody-entry"] > strong').allInnerTexts()).toEqual([
      'Put away', 'Inspected', 'Cleaned', 'Returned', 'Picked up', 'Delivered', 'Out for delivery', 'Packed for an order', 'Reserved for an order', 'Stocked',
    ]);
    await expect(entries.nth(0)).toContainText(`bin ${shelf}`);
    await expect(entries.nth(3)).toContainText(`order ${order.orderNumber}`);
    await expect(entries.nth(5)).toContainText(`customer ${who.firstName}`);
    // The export is there to take away.
    const csv = await staff.request.get(`/api/units/${code}/custody?format=csv`);
    expect(csv.status()).toBe(200);
    expect((await csv.text()).trim().split('\r\n')).toHaveLength(11);
    await api.dispose();
    await admin.dispose();
  });
});
