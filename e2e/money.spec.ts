import { expect, test } from './fixtures';
import { answerPopconfirm, pickOption, registerByApi, uniqueName } from './helpers';
import { deliveredDaysAgo } from './db';
import { apiSignedIn, browserContexts, handOverApi, openStaffOrder, orderHeading, pdfText, product, reloadUntil, rentFromCart, signedIn, takePayment } from './journey';
import { waitForMail } from './mail';

/**
 * Rental money (issue 29, part 1): the terms set in the warehouse's product form, the deposit
 * taken with the first payment, late fees the customer sees growing, the return settled against
 * the deposit once, and the deposit's rest refunded with a number that accounting records.
 */
test.describe('rental money: deposits, late fees and refunds (issue 29)', () => {
  test('a 3-day rental of two units with a deposit, back 5 days late with one damaged: deposit, late fees, settlement, refund and invoices', async ({ browser, playwright, baseURL }) => {
    test.setTimeout(360_000);
    const { newContext, close } = browserContexts(browser, baseURL);
    try {
      const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
      // ₱40.00 a day, damage or lost fee ₱150.00, two units.
      const lift = await product(admin, 'FOR_RENT', '40.00', 2);

      // The warehouse sets the terms in the product form: ₱1,000.00 deposit a unit, ₱100.00 a day late after a grace day, at most 10 days.
      const warehouse = await signedIn(newContext, 'warehouseadmin', '/admin/warehouse-bins');
      await warehouse.goto(`/admin/products/${lift.id}/edit`);
      const terms = warehouse.getByRole('group', { name: 'Rental money terms' });
      await terms.getByLabel('Fixed amount per unit').check();
      await terms.getByLabel('Deposit amount').fill('1000');
      await terms.getByLabel('Late fee per day').fill('100');
      await terms.getByLabel('Grace days').fill('1');
      await terms.getByLabel('Days', { exact: true }).check();
      await terms.getByLabel('Cap days').fill('10');
      await warehouse.getByRole('button', { name: 'Save Changes' }).click();
      await expect(warehouse.getByText('Product updated successfully!')).toBeVisible();

      // The customer reads the terms on the product page and rents both units for 3 days.
      const customer = await registerByApi(admin, uniqueName('cust'), { email: `${uniqueName('dep')}@example.com` });
      const shopper = await signedIn(newContext, customer.username, '/dashboard', customer.password);
      await shopper.goto(`/product-description/${lift.id}`);
      await expect(shopper.getByText('Deposit $1,000.00 per unit, refunded at return less any charges')).toBeVisible();
      await expect(shopper.getByText('Late fee $100.00 a day per unit after 1 grace day, at most 10 days')).toBeVisible();
      await shopper.getByRole('button', { name: 'Increase quantity' }).click();
      await shopper.getByRole('button', { name: 'Increase rental days' }).click();
      await shopper.getByRole('button', { name: 'Increase rental days' }).click();
      const { orderId, orderNumber } = await rentFromCart(shopper, lift.name, '$240.00');
      await expect(shopper.getByTestId('deposit')).toHaveText('$2,000.00');

      // Accounting takes the first day and the deposit together: the dialog says so.
      await openStaffOrder(warehouse, 'Rentals', 'Pending', orderNumber);
      await warehouse.getByRole('button', { name: 'Confirm Order' }).click();
      await answerPopconfirm(warehouse, 'Confirm');
      await expect(warehouse.getByText('FOR PAYMENT', { exact: true }).first()).toBeVisible();
      const accounting = await signedIn(newContext, 'accounting', '/admin/payments');
      await accounting.goto('/admin/payments');
      const row = accounting.getByRole('row', { name: new RegExp(`^${orderNumber} `) });
      await reloadUntil(accounting, accounting.getByLabel('Search payments'), async () => {
        await accounting.getByLabel('Search payments').fill(orderNumber);
        await accounting.getByLabel('Search payments').press('Enter');
        await expect(row).toContainText('Pay Partial Payment', { timeout: 15_000 });
      });
      await row.getByRole('link', { name: 'View' }).click();
      await accounting.getByRole('button', { name: 'Pay Partial Payment' }).click();
      const dialog = accounting.getByRole('dialog', { name: 'Pay Partial Payment' });
      await expect(dialog.getByTestId('due-now')).toHaveText('$2,080.00');
      await expect(dialog.getByText('(includes the deposit of $2,000.00)')).toBeVisible();
      await dialog.getByLabel('Invoice Number').fill(uniqueName('INV'));
      await dialog.getByLabel('Receipt Number').fill('OR-D1');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(accounting.getByText('Payment recorded.')).toBeVisible();
      await expect(accounting.getByTestId('deposit-held')).toHaveText('$2,000.00');

      // Packed, delivered with a hand-over, and (moved back in time) delivered 9 days ago: due 6 days ago.
      await expect
        .poll(async () => ((await (await admin.get(`/api/orders/${orderId}`)).json()) as { order: { status: string } }).order.status, { timeout: 60_000 })
        .toBe('PREPARING');
      const lines = ((await (await admin.get(`/api/orders/${orderId}`)).json()) as { order: { products: Array<{ id: string }> } }).order.products;
      expect((await admin.post(`/api/orders/${orderId}/transitions`, { data: { to: 'TO_SHIP', packing: [{ lineID: lines[0]!.id, serialCodes: lift.serials }] } })).status()).toBe(200);
      expect((await admin.post('/api/driver/scan', { data: { purpose: 'DELIVERY', code: orderNumber } })).status()).toBe(200);
      await handOverApi(admin, orderId);
      await deliveredDaysAgo(orderId, 9);

      // The customer sees the late fees so far: 5 days past the grace day, 2 units × ₱100.00.
      await shopper.reload();
      await expect(shopper.getByText('Late fees so far: $1,000.00 (5 days late). They grow each day until the equipment is picked up.')).toBeVisible();

      // The warehouse waives ₱200.00 of them, with a reason: the customer sees the rest.
      await warehouse.goto(`/admin/orders/rentals/${orderId}`);
      await warehouse.getByRole('button', { name: 'Waive late fees' }).click();
      const waive = warehouse.getByRole('dialog', { name: 'Waive Late Fees' });
      await waive.getByLabel('Amount to waive').fill('200');
      await waive.getByRole('button', { name: 'Waive' }).click();
      await expect(waive.getByText('Please give the reason for the waiver!')).toBeVisible();
      await waive.getByLabel('Reason').fill('Patient was in hospital for two days');
      await waive.getByRole('button', { name: 'Waive' }).click();
      await expect(warehouse.getByText('Late fees waived.')).toBeVisible();
      await expect(warehouse.getByRole('region', { name: 'Late fee waivers' })).toContainText('Patient was in hospital for two days');
      await shopper.reload();
      await expect(shopper.getByText('Late fees so far: $800.00 (5 days late). They grow each day until the equipment is picked up.')).toBeVisible();

      // Picked up today; the warehouse marks one unit OK and one DAMAGED, then asks for the full payment.
      expect((await admin.post(`/api/orders/${orderId}/transitions`, { data: { to: 'FOR_RETURN' } })).status()).toBe(200);
      await handOverApi(admin, orderId, 'PICKUP');
      for (const [code, status] of [[lift.serials[0]!, 'OK'], [lift.serials[1]!, 'DAMAGED']] as const) {
        expect((await admin.post(`/api/orders/${orderId}/serials/${code}/return`, { data: { status } })).status()).toBe(200);
      }
      await warehouse.goto(`/admin/orders/rentals/${orderId}`);
      await warehouse.getByRole('button', { name: 'For Full Payment' }).click();
      // Damage ₱150.00 + late fees ₱800.00 (₱1,000.00 less ₱200.00 waived) = ₱950.00 from the ₱2,000.00 deposit: ₱1,050.00 back; the rent left is ₱160.00.
      const ask = warehouse.getByRole('dialog');
      await expect(
        ask.getByText(
          `The extra charge will be the damage or lost fees of every serial code not marked OK: $950.00 (${lift.serials[1]} (DAMAGED)). It includes late fees of $800.00. The deposit of $2,000.00 pays $950.00 of it; $1,050.00 is refunded. The full payment is due one day from now.`,
        ),
      ).toBeVisible();
      await ask.getByRole('button', { name: 'Yes' }).click();
      await expect(warehouse.getByText('FOR FULL PAYMENT', { exact: true }).first()).toBeVisible();

      // Accounting takes the rent left; the deposit's rest is a numbered refund, recorded as paid back.
      await takePayment(accounting, orderNumber, 'Complete Payment', uniqueName('INV'), 'OR-D2', 'For Full Payment');
      // Paid in full, the deposit's rest still owed: counted on accounting's home among the refunds to pay back, and on that tab.
      await accounting.goto('/admin/payments');
      await accounting.getByRole('region', { name: 'Needs you now' }).getByRole('link', { name: /^\d+ refunds? to pay back$/ }).click();
      await expect(accounting).toHaveURL(/\/admin\/payments\?status=REFUNDS$/);
      await expect(accounting.getByRole('tab', { name: /^Refunds to Pay \d+$/, selected: true })).toBeVisible();
      await accounting.getByLabel('Search payments').fill(orderNumber);
      await accounting.getByLabel('Search payments').press('Enter');
      const owed = accounting.getByRole('row', { name: new RegExp(orderNumber) });
      await expect(owed).toContainText('PAID');
      await owed.getByRole('link', { name: 'View' }).click();
      const refunds = accounting.getByRole('region', { name: 'Refunds' });
      const refundRow = refunds.getByRole('row', { name: /RF-\d{8}-\d{6}/ });
      await expect(refundRow).toContainText('$1,050.00');
      await expect(refundRow).toContainText('Deposit returned');
      const refundNumber = ((await refundRow.textContent()) ?? '').match(/RF-\d{8}-\d{6}/)![0];
      await refunds.getByRole('button', { name: `Record refund ${refundNumber}` }).click();
      const record = accounting.getByRole('dialog', { name: 'Record Refund' });
      await record.getByRole('button', { name: 'Record Refund' }).click();
      await expect(record.getByText('Please choose how the money was paid back!')).toBeVisible();
      await pickOption(record, 'Method', 'Bank transfer');
      await record.getByLabel('Reference').fill('BT-77812');
      await record.getByRole('button', { name: 'Record Refund' }).click();
      await expect(accounting.getByText('Refund recorded.')).toBeVisible();
      await expect(refundRow).toContainText('Refunded');
      await expect(refundRow).toContainText('BT-77812');

      // The customer: the settlement on the order, the refund paid back, an e-mail, and the full payment's invoice.
      await reloadUntil(shopper, orderHeading(shopper), async () => {
        await expect(shopper.getByTestId('deposit-refund')).toHaveText('$1,050.00', { timeout: 3000 });
        await expect(shopper.getByText(refundNumber).first()).toBeVisible({ timeout: 3000 });
      });
      const mail = await waitForMail(customer.email, { subject: `Refund ${refundNumber} paid back for ${orderNumber}` }, 60_000);
      expect(mail.text).toContain('We have paid back $1,050.00, the rest of your deposit');
      const download = shopper.waitForEvent('download');
      await shopper.getByRole('link', { name: /FULL_PAYMENT_INVOICE\.pdf/ }).click();
      // The PDF's runs, one space between words.
      const text = (await pdfText((await (await download).path())!)).replace(/\s+/g, ' ');
      for (const expected of ['Deposit (refundable) $2,000.00', 'of which late fees $800.00', 'Deposit applied to charges $950.00', 'Deposit to refund $1,050.00', 'Partial payment + deposit', '$2,080.00', 'Full payment', '$160.00']) {
        expect(text, expected).toContain(expected);
      }

      // The superadmin's rental money reports of today (built from the events): the deposit settled, the late fees with the waiver, the refund.
      const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Manila' });
      const reports = await signedIn(newContext, 'superadmin', '/admin/users');
      const reportRow = async (report: string, key: string, cells: string[]) => {
        await expect(async () => {
          await reports.goto(`/admin/reports?report=${report}&from=${today}&to=${today}`);
          const r = reports.getByRole('row', { name: new RegExp(key) });
          // The report drawn with the order's row (seconds on a busy machine), then its figures.
          await expect(r).toBeVisible({ timeout: 30_000 });
          for (const cell of cells) await expect(r).toContainText(cell, { timeout: 3000 });
        }).toPass({ timeout: 120_000 });
      };
      await reportRow('deposits-held', orderNumber, ['$2,000.00', '$950.00', '$1,050.00', '$0.00']);
      await expect(reports.getByRole('tab', { name: 'Deposits Held', selected: true })).toBeVisible();
      await reportRow('late-fees', orderNumber, ['$1,000.00', '$200.00', '$800.00']);
      await reportRow('refunds', refundNumber, [orderNumber, 'Deposit returned', 'Bank transfer', '$1,050.00']);

      // Accounting reconciles now: every payment checked against its terms, this rental's with nothing found.
      await accounting.getByRole('menuitem', { name: 'Reconciliation' }).click();
      await expect(accounting.getByRole('heading', { level: 1, name: 'Reconciliation' })).toBeVisible();
      await accounting.getByRole('button', { name: 'Run now' }).click();
      await expect(accounting.getByText(/^Reconciliation done: /)).toBeVisible();
      await expect(accounting.getByTestId('run-summary')).toContainText(/Run now · [\d,]+ payments checked/);
      await expect(accounting.getByRole('region', { name: 'Runs' }).getByRole('row').nth(1)).toContainText('Run now');
      await expect(accounting.getByRole('region', { name: 'Mismatches' })).not.toContainText(orderNumber);
    } finally {
      await close();
    }
  });
});
