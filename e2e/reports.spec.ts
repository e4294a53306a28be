import ExcelJS from 'exceljs';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { registerByApi, signInAs, uniqueName } from './helpers';
import { product, reloadUntil } from './journey';

/** Staff confirm the order and accounting takes its payment, through the API (the screens have their own journeys). */
async function paid(admin: APIRequestContext, order: { id: string; orderNumber: string }, invoice: string, receipt: string): Promise<void> {
  expect((await admin.post(`/api/orders/${order.id}/transitions`, { data: { to: 'FOR_PAYMENT' } })).status()).toBe(200);
  // The payment becomes payable when the payment service sees the order move (an event).
  let paymentId = '';
  await expect(async () => {
    const res = await admin.get(`/api/payments?status=PENDING&search=${order.orderNumber}`);
    const { items } = (await res.json()) as { items: Array<{ id: string; orderNumber: string; nextAction: string | null }> };
    const mine = items.find((p) => p.orderNumber === order.orderNumber);
    expect(mine?.nextAction).toBe('MARK_AS_PAID');
    paymentId = mine!.id;
  }).toPass({ timeout: 30_000 });
  const res = await admin.post(`/api/payments/${paymentId}/confirm`, {
    data: { invoiceNumber: invoice, receiptNumber: receipt, note: '' },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test.describe('reports (issue 11)', () => {
  test('the superadmin sees the period\'s sales and invoices of orders made in the test, and exports one report to Excel', async ({ page, playwright, baseURL }) => {
    test.setTimeout(180_000);
    const admin = await playwright.request.newContext({ baseURL });
    expect((await admin.post('/api/auth/login', { data: { username: 'superadmin', password: process.env.E2E_DEMO_PASSWORD ?? 'demo-pass-2026' } })).status()).toBe(200);
    const sale = await product(admin, 'FOR_SALE', '45.50', 5);

    // A customer buys 2, then 1 more; both are paid in full today.
    const customer = await playwright.request.newContext({ baseURL });
    const c = await registerByApi(customer);
    expect((await customer.post('/api/auth/login', { data: { username: c.username, password: c.password } })).status()).toBe(200);
    const address = { deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '121000', note: '' };
    const invoices: string[] = [];
    for (const quantity of [2, 1]) {
      const res = await customer.post('/api/orders', {
        data: { ...address, type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: sale.id, quantity }] },
        headers: { 'idempotency-key': uniqueName('key') },
      });
      expect(res.status(), await res.text()).toBe(201);
      const { order } = (await res.json()) as { order: { id: string; orderNumber: string } };
      const invoice = uniqueName('INV');
      invoices.push(invoice);
      await paid(admin, order, invoice, uniqueName('OR'));
    }

    // The reports screen: this month so far (Manila) by default; the product's row adds both orders.
    await signInAs(page, 'superadmin', undefined, '/admin/users');
    await page.goto('/admin/reports');
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    const row = page.getByRole('row', { name: new RegExp(sale.name) });
    // The reporting service learns of payments from events: a moment after they were taken.
    await reloadUntil(page, page.getByRole('tab', { name: 'Purchased Sales' }), async () => {
      await page.getByRole('tab', { name: 'Purchased Sales' }).click();
      // The report answers in well under a second on a quiet machine, in seconds on a busy one.
      await expect(row).toContainText('$136.50', { timeout: 15_000 });
    });
    await expect(row).toContainText('Omron');
    await expect(row.getByRole('cell', { name: '3', exact: true })).toBeVisible();
    const totals = page.getByRole('region', { name: 'Overall totals' });
    await expect(totals.getByRole('group', { name: 'Overall Sales' })).toBeVisible();

    // Its payments are in the purchased invoice report, one row each.
    await page.getByRole('tab', { name: 'Purchased Invoice' }).click();
    for (const [i, invoice] of invoices.entries()) {
      await expect(page.getByRole('row', { name: new RegExp(invoice) })).toContainText(i === 0 ? '$91.00' : '$45.50');
    }

    // Export the purchased sales to Excel and read the file back.
    await page.getByRole('tab', { name: 'Purchased Sales' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export to Excel' }).click();
    await expect(page.getByRole('link', { name: 'Download FOR_SALE_PRODUCT_REPORTS.xlsx' })).toBeVisible({ timeout: 30_000 });
    const file = await download;
    expect(file.suggestedFilename()).toBe('FOR_SALE_PRODUCT_REPORTS.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await file.path())!);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['Brand', 'Name', 'Total Quantity', 'Product Amount', 'Total Sales']);
    const rows: unknown[][] = [];
    sheet.eachRow((r, n) => {
      if (n > 1) rows.push((r.values as unknown[]).slice(1));
    });
    const mine = rows.find((r) => r[1] === sale.name);
    expect(mine).toEqual(['Omron', sale.name, 3, 45.5, 136.5]);
    // The last row is the totals row; its sales equal the sum of the rows above it.
    const last = rows[rows.length - 1]!;
    const sum = rows.slice(0, -1).reduce((a, r) => a + Math.round(Number(r[4]) * 100), 0);
    expect(Math.round(Number(last[4]) * 100)).toBe(sum);
    await admin.dispose();
    await customer.dispose();
  });
});
