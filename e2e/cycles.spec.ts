import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { answerPopconfirm, registerByApi, uniqueName } from './helpers';
import { deliveredDaysAgo, paymentDelivered } from './db';
import { apiSignedIn, browserContexts, handOverApi, openStaffOrder, orderHeading, pdfText, product, reloadUntil, rentFromCart, signedIn, takePayment } from './journey';

/**
 * Billing cycles (issue 29, part 7): a product billed every 30 days, a 60-day rental with a
 * deposit — the first day and the deposit first, then each 30-day cycle from delivery taken by
 * accounting with its own invoice, the cycles on the customer's and the warehouse's pages, and a
 * return 5 days late with a damaged unit settled against the deposit, nothing left to pay.
 */
type Contexts = ReturnType<typeof browserContexts>;
type Api = Awaited<ReturnType<typeof apiSignedIn>>;
type Made = Awaited<ReturnType<typeof product>>;

/** The warehouse sets the product's terms in its form: a ₱500.00 deposit, billed every 30 days, and what `more` adds. */
async function cycleTerms(newContext: Contexts['newContext'], bed: Made, more: (terms: Locator) => Promise<void>): Promise<Page> {
  const warehouse = await signedIn(newContext, 'warehouseadmin', '/admin/warehouse-bins');
  await warehouse.goto(`/admin/products/${bed.id}/edit`);
  const terms = warehouse.getByRole('group', { name: 'Rental money terms' });
  await terms.getByLabel('Fixed amount per unit').check();
  await terms.getByLabel('Deposit amount').fill('500');
  await terms.getByLabel('Every 30 days (rentals over 30 days)').check();
  await more(terms);
  await warehouse.getByRole('button', { name: 'Save Changes' }).click();
  await expect(warehouse.getByText('Product updated successfully!')).toBeVisible();
  return warehouse;
}

/** A new customer reads `says` on the product page and rents the product for 60 days (₱6,000.00). */
async function rentSixtyDays(newContext: Contexts['newContext'], admin: Api, bed: Made, says: string) {
  const customer = await registerByApi(admin, uniqueName('cust'), { email: `${uniqueName('cyc')}@example.com` });
  const shopper = await signedIn(newContext, customer.username, '/dashboard', customer.password);
  await shopper.goto(`/product-description/${bed.id}`);
  await expect(shopper.getByText(says)).toBeVisible();
  await shopper.getByRole('textbox', { name: 'Rental days', exact: true }).fill('60');
  return { shopper, ...(await rentFromCart(shopper, bed.name, '$6,000.00')) };
}

/** Once its first payment moved it to PREPARING: packed with its unit, delivered with a hand-over, and the payment told. */
async function packAndDeliver(admin: Api, order: { orderId: string; orderNumber: string }, serials: string[]): Promise<void> {
  const { orderId, orderNumber } = order;
  await expect
    .poll(async () => ((await (await admin.get(`/api/orders/${orderId}`)).json()) as { order: { status: string } }).order.status, { timeout: 60_000 })
    .toBe('PREPARING');
  const lines = ((await (await admin.get(`/api/orders/${orderId}`)).json()) as { order: { products: Array<{ id: string }> } }).order.products;
  expect((await admin.post(`/api/orders/${orderId}/transitions`, { data: { to: 'TO_SHIP', packing: [{ lineID: lines[0]!.id, serialCodes: serials }] } })).status()).toBe(200);
  expect((await admin.post('/api/driver/scan', { data: { purpose: 'DELIVERY', code: orderNumber } })).status()).toBe(200);
  await handOverApi(admin, orderId);
  await paymentDelivered(orderId);
}

test.describe('billing cycles (issue 29)', () => {
  test('a 60-day rental on cycles with a deposit: first payment, cycle 1 and 2, late return with damage, settlement, invoices', async ({ browser, playwright, baseURL }) => {
    test.setTimeout(360_000);
    const { newContext, close } = browserContexts(browser, baseURL);
    try {
      const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
      // ₱100.00 a day, damage or lost fee ₱150.00, one unit.
      const bed = await product(admin, 'FOR_RENT', '100.00', 1);

      // The warehouse sets the terms: a ₱500.00 deposit, ₱50.00 a day late, billed every 30 days.
      const warehouse = await cycleTerms(newContext, bed, (terms) => terms.getByLabel('Late fee per day').fill('50'));

      // The customer reads how it is billed and rents it for 60 days.
      const { shopper, orderId, orderNumber } = await rentSixtyDays(newContext, admin, bed, 'Rentals over 30 days are billed every 30 days');
      await expect(shopper.getByTestId('deposit')).toHaveText('$500.00');

      // The warehouse confirms; accounting takes the first day and the deposit.
      await openStaffOrder(warehouse, 'Rentals', 'Pending', orderNumber);
      await warehouse.getByRole('button', { name: 'Confirm Order' }).click();
      await answerPopconfirm(warehouse, 'Confirm');
      await expect(warehouse.getByText('FOR PAYMENT', { exact: true }).first()).toBeVisible();
      const accounting = await signedIn(newContext, 'accounting', '/admin/payments');
      await takePayment(accounting, orderNumber, 'Pay Partial Payment', uniqueName('INV'), 'OR-C0');
      await expect(accounting.getByTestId('deposit-held')).toHaveText('$500.00');
      const cyclesRegion = accounting.getByRole('region', { name: 'Billing cycles' });
      await expect(cyclesRegion).toContainText('Cycles start on the delivery day.');

      // Packed and delivered; then (moved back in time) delivered 31 days ago: both cycles are due.
      await packAndDeliver(admin, { orderId, orderNumber }, bed.serials);
      await deliveredDaysAgo(orderId, 31);

      // Accounting takes cycle 1 (its 30 days less the first day paid), then cycle 2, each from the cycles table's due amount.
      await accounting.reload();
      await expect(cyclesRegion.getByRole('row', { name: /^1 / })).toContainText('Due');
      await expect(cyclesRegion.getByRole('row', { name: /^2 / })).toContainText('Due');
      for (const [n, due] of [
        [1, '$2,900.00'],
        [2, '$3,000.00'],
      ] as const) {
        await accounting.getByRole('button', { name: 'Take Cycle Payment' }).click();
        const dialog = accounting.getByRole('dialog', { name: 'Take Cycle Payment' });
        await expect(dialog.getByTestId('due-now')).toHaveText(due);
        await expect(dialog.getByTestId('due-cycle')).toContainText(`Cycle ${n}:`);
        await dialog.getByLabel('Invoice Number').fill(uniqueName('INV'));
        await dialog.getByLabel('Receipt Number').fill(`OR-C${n}`);
        await dialog.getByRole('button', { name: 'Confirm' }).click();
        await expect(accounting.getByText('Payment recorded.').first()).toBeVisible();
        await expect(dialog).toHaveCount(0);
        await expect(cyclesRegion.getByRole('row', { name: new RegExp(`^${n} `) })).toContainText('Paid');
      }
      await expect(accounting.getByRole('button', { name: 'Take Cycle Payment' })).toHaveCount(0);
      const records = accounting.getByRole('region', { name: 'Payment Records' });
      await expect(records.getByRole('row', { name: /Cycle 1 payment/ })).toContainText('$2,900.00');
      await expect(records.getByRole('row', { name: /Cycle 2 payment/ })).toContainText('$3,000.00');

      // The customer sees both cycles paid, and downloads cycle 2's invoice.
      await reloadUntil(shopper, orderHeading(shopper), async () => {
        const mine = shopper.getByRole('region', { name: 'Billing cycles' });
        await expect(mine.getByRole('row', { name: /^1 / })).toContainText('Paid', { timeout: 3000 });
        await expect(mine.getByRole('row', { name: /^2 / })).toContainText('Paid', { timeout: 3000 });
      });
      const download = shopper.waitForEvent('download');
      await shopper.getByRole('link', { name: /CYCLE_INVOICE_2\.pdf/ }).click();
      const cycleText = (await pdfText((await (await download).path())!)).replace(/\s+/g, ' ');
      for (const expected of ['Rental — cycle 2 payment', 'Cycle 2:', '(30 days) $3,000.00', 'Cycle 1 payment', 'Cycle 2 payment', 'Partial payment + deposit']) {
        expect(cycleText, expected).toContain(expected);
      }

      // Kept 5 days past its due date (delivered 65 days ago), picked up with the unit damaged.
      await deliveredDaysAgo(orderId, 34);
      expect((await admin.post(`/api/orders/${orderId}/transitions`, { data: { to: 'FOR_RETURN' } })).status()).toBe(200);
      await handOverApi(admin, orderId, 'PICKUP');
      expect((await admin.post(`/api/orders/${orderId}/serials/${bed.serials[0]}/return`, { data: { status: 'DAMAGED' } })).status()).toBe(200);
      await warehouse.goto(`/admin/orders/rentals/${orderId}`);
      await expect(warehouse.getByRole('region', { name: 'Billing cycles' }).getByRole('row', { name: /^2 / })).toContainText('Paid');
      await warehouse.getByRole('button', { name: 'For Full Payment' }).click();
      // Damage ₱150.00 + late fees 5 × ₱50.00 = ₱400.00 from the ₱500.00 deposit: ₱100.00 back; the cycles paid all the rent.
      const ask = warehouse.getByRole('dialog');
      await expect(
        ask.getByText(
          `The extra charge will be the damage or lost fees of every serial code not marked OK: $400.00 (${bed.serials[0]} (DAMAGED)). It includes late fees of $250.00. The deposit of $500.00 pays $400.00 of it; $100.00 is refunded. The full payment is due one day from now.`,
        ),
      ).toBeVisible();
      await ask.getByRole('button', { name: 'Yes' }).click();
      await expect(warehouse.getByText('FOR FULL PAYMENT', { exact: true }).first()).toBeVisible();

      // Nothing is left to pay: accounting completes the payment of $0.00; the deposit's rest is a refund.
      await takePayment(accounting, orderNumber, 'Complete Payment', uniqueName('INV'), 'OR-C3', 'For Full Payment');
      await expect(accounting.getByRole('region', { name: 'Refunds' }).getByRole('row', { name: /RF-\d{8}-\d{6}/ })).toContainText('$100.00');
      await expect(records.getByRole('row', { name: /Full Payment/ })).toContainText('$0.00');

      // The customer's full-payment invoice lists every payment and the settlement.
      await reloadUntil(shopper, orderHeading(shopper), () => expect(shopper.getByRole('link', { name: /FULL_PAYMENT_INVOICE\.pdf/ })).toBeVisible({ timeout: 3000 }));
      const full = shopper.waitForEvent('download');
      await shopper.getByRole('link', { name: /FULL_PAYMENT_INVOICE\.pdf/ }).click();
      const fullText = (await pdfText((await (await full).path())!)).replace(/\s+/g, ' ');
      for (const expected of ['Deposit (refundable) $500.00', 'of which late fees $250.00', 'Deposit applied to charges $400.00', 'Deposit to refund $100.00', 'Cycle 1 payment', 'Cycle 2 payment', 'Full payment']) {
        expect(fullText, expected).toContain(expected);
      }

      // Accounting reconciles: this rental's first, cycle and full payments match its terms.
      await accounting.getByRole('menuitem', { name: 'Reconciliation' }).click();
      await accounting.getByRole('button', { name: 'Run now' }).click();
      await expect(accounting.getByText(/^Reconciliation done: /)).toBeVisible();
      await expect(accounting.getByRole('region', { name: 'Mismatches' })).not.toContainText(orderNumber);
    } finally {
      await close();
    }
  });

  test('rent-to-own: terms in the product form, the rent credited and buy-out price on the customer\'s page, accounting takes the buy-out, the unit is the customer\'s', async ({ browser, playwright, baseURL }) => {
    test.setTimeout(300_000);
    const { newContext, close } = browserContexts(browser, baseURL);
    try {
      const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
      const bed = await product(admin, 'FOR_RENT', '100.00', 1);

      // The warehouse offers it rent-to-own: ₱30,000.00 a unit, half the rent credited, the customer's after 12 paid cycles.
      const warehouse = await cycleTerms(newContext, bed, async (terms) => {
        await terms.getByRole('radiogroup', { name: 'Rent-to-own' }).getByLabel('On').check();
        await terms.getByLabel('Sale price').fill('30000');
        await terms.getByLabel('Rent credited (%)').fill('50');
        await terms.getByLabel('Owned after cycles').fill('12');
      });
      const { shopper, orderId, orderNumber } = await rentSixtyDays(
        newContext,
        admin,
        bed,
        'Rent-to-own: yours after 12 paid cycles, or buy it out any time for $30,000.00 a unit less 50% of the rent paid',
      );

      // Confirmed, the first day and deposit paid, packed and delivered.
      expect((await admin.post(`/api/orders/${orderId}/transitions`, { data: { to: 'FOR_PAYMENT' } })).status()).toBe(200);
      const accounting = await signedIn(newContext, 'accounting', '/admin/payments');
      await takePayment(accounting, orderNumber, 'Pay Partial Payment', uniqueName('INV'), 'OR-R0');
      await packAndDeliver(admin, { orderId, orderNumber }, bed.serials);

      // The customer reads the rent credited so far (the first day) and what buying it out costs now.
      await reloadUntil(shopper, orderHeading(shopper), () =>
        expect(shopper.getByRole('region', { name: 'Rent-to-own' }).getByRole('row', { name: new RegExp(bed.name) })).toContainText('$29,950.00', { timeout: 3000 }),
      );
      await expect(shopper.getByRole('region', { name: 'Rent-to-own' }).getByRole('row', { name: new RegExp(bed.name) })).toContainText('0 of 12 cycles paid');

      // Accounting takes the buy-out from the payment page.
      await accounting.reload();
      await accounting.getByRole('button', { name: 'Take Buy-Out Payment' }).click();
      const dialog = accounting.getByRole('dialog', { name: 'Take Buy-Out Payment' });
      await expect(dialog.getByTestId('due-now')).toHaveText('$29,950.00');
      await dialog.getByLabel('Invoice Number').fill(uniqueName('INV'));
      await dialog.getByLabel('Receipt Number').fill('OR-BO');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(accounting.getByText('Payment recorded.').first()).toBeVisible();
      await expect(accounting.getByRole('region', { name: 'Payment Records' }).getByRole('row', { name: /Buy-out/ })).toContainText('$29,950.00');
      await expect(accounting.getByRole('region', { name: 'Refunds' }).getByRole('row', { name: /RF-\d{8}-\d{6}/ })).toContainText('$500.00');

      // The rental is completed without coming back; the unit is the customer's (sold, its history says so).
      await reloadUntil(shopper, orderHeading(shopper), () => expect(shopper.getByRole('region', { name: 'Rent-to-own' }).getByText('Yours')).toBeVisible({ timeout: 3000 }));
      await expect(shopper.getByRole('link', { name: /BUY_OUT_INVOICE\.pdf/ })).toBeVisible();
      await warehouse.getByRole('search', { name: 'Find unit' }).getByRole('textbox', { name: 'Serial code' }).fill(bed.serials[0]!);
      await warehouse.getByRole('search', { name: 'Find unit' }).getByRole('button', { name: 'Find' }).click();
      await expect(warehouse.getByRole('heading', { name: `Unit ${bed.serials[0]}` })).toBeVisible();
      await reloadUntil(warehouse, warehouse.getByRole('heading', { name: `Unit ${bed.serials[0]}` }), () =>
        expect(warehouse.locator('[data-testid="custody-entry"] > strong').first()).toHaveText('Bought by the customer (rent-to-own)', { timeout: 3000 }),
      );
      expect(((await (await admin.get(`/api/orders/${orderId}`)).json()) as { order: { status: string } }).order.status).toBe('COMPLETED');
    } finally {
      await close();
    }
  });
});
