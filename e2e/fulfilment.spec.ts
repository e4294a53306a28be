import { readFile } from 'node:fs/promises';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { DEMO_PASSWORD, expect, test } from './fixtures';
import { answerPopconfirm, registerByApi, signInAs, uniqueName } from './helpers';
import { apiSignedIn, browserContexts, openStaffOrder, pdfText, product, signedIn, takePayment, untilStatus } from './journey';

test.describe('fulfilment and payments (issue 9)', () => {
  test('customer orders → warehouse confirms → accounting takes the payment (and a rental\'s first day) → warehouse packs by typed serial codes → TO_SHIP; the customer downloads the invoice and the QR', async ({ browser, playwright, baseURL }) => {
    test.setTimeout(240_000);
    const { newContext, close } = browserContexts(browser, baseURL);
    try {
      // Stock of the test's own: a sale item and a rental item.
      const admin = await playwright.request.newContext({ baseURL });
      expect((await admin.post('/api/auth/login', { data: { username: 'superadmin', password: process.env.DEMO_PASSWORD ?? 'demo-pass-2026' } })).status()).toBe(200);
      const sale = await product(admin, 'FOR_SALE', '45.50', 3);
      const rent = await product(admin, 'FOR_RENT', '12.00', 2);

      // The customer orders both (the shop's checkout screens have their own journey in shop.spec.ts).
      const customer = await registerByApi(admin);
      const shopper = await signedIn(newContext, customer.username, '/dashboard', customer.password);
      const address = { deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '121000', note: 'Gate 2' };
      const place = async (body: Record<string, unknown>) => {
        const res = await shopper.request.post('/api/orders', { data: { ...address, ...body }, headers: { 'idempotency-key': uniqueName('key') } });
        expect(res.status(), await res.text()).toBe(201);
        return ((await res.json()) as { order: { id: string; orderNumber: string; totalAmount: string; products: Array<{ id: string }> } }).order;
      };
      const purchase = await place({ type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: sale.id, quantity: 2 }] });
      const rental = await place({ type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: rent.id, quantity: 1, noOfRentalDays: 3 }] });
      expect(purchase.totalAmount).toBe('91.00');
      expect(rental.totalAmount).toBe('36.00');

      // The warehouse confirms both (PENDING → FOR_PAYMENT behind a prompt).
      const warehouse = await signedIn(newContext, 'warehouseadmin', '/admin/warehouse-bins');
      await openStaffOrder(warehouse, 'Purchased', 'Pending', purchase.orderNumber);
      await expect(warehouse.getByRole('region', { name: 'QR Code' })).toHaveCount(0);
      await warehouse.getByRole('button', { name: 'Confirm Order' }).click();
      await answerPopconfirm(warehouse, 'Confirm');
      await expect(warehouse.getByText('Order confirmed: waiting for payment.')).toBeVisible();
      await expect(warehouse.getByText('FOR PAYMENT', { exact: true }).first()).toBeVisible();
      await openStaffOrder(warehouse, 'Rentals', 'Pending', rental.orderNumber);
      await warehouse.getByRole('button', { name: 'Confirm Order' }).click();
      await answerPopconfirm(warehouse, 'Confirm');
      await expect(warehouse.getByText('FOR PAYMENT', { exact: true }).first()).toBeVisible();

      // Accounting: the purchase in full, the rental's first day.
      const accounting = await signedIn(newContext, 'accounting', '/admin/payments');
      const invoice = uniqueName('INV');
      await takePayment(accounting, purchase.orderNumber, 'Mark as paid', invoice, 'OR-1001');
      await expect(accounting.getByRole('region', { name: 'Payment Records' })).toContainText(invoice);
      // The record names the person who took it, not their username (issue 27).
      await expect(accounting.getByRole('region', { name: 'Payment Records' }).getByRole('cell', { name: 'Ana Villanueva' })).toBeVisible();
      await takePayment(accounting, rental.orderNumber, 'Pay Partial Payment', uniqueName('INV'), 'OR-1002');
      await expect(accounting.getByText('INITIAL PAYMENT', { exact: true }).first()).toBeVisible();

      // The payments move the orders to PREPARING; the warehouse packs the purchase by typed serial codes.
      await warehouse.goto(`/admin/orders/purchased/${purchase.id}`);
      await untilStatus(warehouse, 'PREPARING');
      const toShip = warehouse.getByRole('button', { name: 'To Ship Order' });
      await expect(toShip).toBeDisabled();
      await warehouse.getByRole('button', { name: `Scan ${sale.name}` }).click();
      const scan = warehouse.getByRole('dialog', { name: `Scan ${sale.name}` });
      const code = scan.getByRole('textbox', { name: 'Serial code' });
      // A label of another product, then a repeat, are refused with the spec's messages.
      await code.fill(rent.serials[0]!);
      await code.press('Enter');
      await expect(scan.getByText(`Scanned product is not ${sale.name}. Please make sure that you only scanned the type of product you selected.`)).toBeVisible();
      await code.fill(sale.serials[0]!);
      await code.press('Enter');
      await expect(scan.getByRole('list', { name: 'Scanned serial codes' })).toContainText(sale.serials[0]!);
      await expect(scan.getByRole('button', { name: 'OK' })).toBeDisabled();
      await code.fill(sale.serials[0]!);
      await code.press('Enter');
      await expect(scan.getByText('Already scanned')).toBeVisible();
      await code.fill(sale.serials[1]!);
      await code.press('Enter');
      await expect(scan.getByRole('list', { name: 'Scanned serial codes' })).toContainText(sale.serials[1]!);
      await scan.getByRole('button', { name: 'OK' }).click();
      await expect(scan).toHaveCount(0);
      await expect(toShip).toBeEnabled();
      await toShip.click();
      await expect(warehouse.getByText('Order packed: ready to ship.')).toBeVisible();
      await expect(warehouse.getByText('TO SHIP', { exact: true }).first()).toBeVisible();
      const products = warehouse.getByRole('region', { name: 'Products' });
      for (const s of sale.serials.slice(0, 2)) await expect(products).toContainText(s);
      await expect(warehouse.getByRole('region', { name: 'QR Code' })).toBeVisible();

      // The rental is PREPARING too once its first day is paid.
      await warehouse.goto(`/admin/orders/rentals/${rental.id}`);
      await untilStatus(warehouse, 'PREPARING');
      await expect(warehouse.getByRole('region', { name: 'Payment Information' })).toContainText('INITIAL PAYMENT');

      // The customer: payment information, the invoice (its text read back) and the order QR (decoded).
      await shopper.goto(`/orders/purchased/${purchase.id}`);
      await expect(shopper.getByRole('heading', { name: `Order ${purchase.orderNumber}` })).toBeVisible();
      await expect(shopper.getByRole('region', { name: 'Payment Records' })).toContainText(invoice);
      const pdfDownload = shopper.waitForEvent('download');
      await shopper.getByRole('link', { name: 'Download INVOICE.pdf' }).click();
      const pdf = await pdfDownload;
      expect(pdf.suggestedFilename()).toBe('INVOICE.pdf');
      const text = await pdfText((await pdf.path())!);
      // pdf.js splits text into runs wherever the layout does: compare without white space.
      const flat = text.replace(/\s+/g, '');
      for (const want of ['INVOICE', invoice, 'OR-1001', purchase.orderNumber, sale.name, '$91.00']) expect(flat).toContain(want.replace(/\s+/g, ''));
      const qrDownload = shopper.waitForEvent('download');
      await shopper.getByRole('link', { name: 'Download QR' }).click();
      const qr = await qrDownload;
      expect(qr.suggestedFilename()).toBe('QR_Code.png');
      const png = PNG.sync.read(await readFile((await qr.path())!));
      const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
      expect(JSON.parse(decoded!.data)).toEqual({ orderID: purchase.id, orderNumber: purchase.orderNumber });

      // The rental's invoice is the initial-payment one.
      await shopper.goto(`/orders/rentals/${rental.id}`);
      const rentPdf = shopper.waitForEvent('download');
      await shopper.getByRole('link', { name: 'Download INITIAL_PAYMENT_INVOICE.pdf' }).click();
      expect((await rentPdf).suggestedFilename()).toBe('INITIAL_PAYMENT_INVOICE.pdf');
      await admin.dispose();
    } finally {
      await close();
    }
  });

  test('a packer reloads mid-packing and continues: each scan is kept on the server, To Ship Order packs them (issue 22)', async ({ browser, playwright, baseURL }) => {
    test.setTimeout(180_000);
    const login = (username: string, password?: string) => apiSignedIn(playwright, baseURL, username, password);
    const admin = await login('superadmin');
    const sale = await product(admin, 'FOR_SALE', '19.90', 3);
    const customer = await registerByApi(admin);
    const shopper = await login(customer.username, customer.password);
    const placed = await shopper.post('/api/orders', {
      headers: { 'idempotency-key': uniqueName('key') },
      data: { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: sale.id, quantity: 2 }], deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '121000', note: '' },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const order = ((await placed.json()) as { order: { id: string; orderNumber: string } }).order;
    // Confirmed and paid through the API (their screens have the journey above): the order is PREPARING.
    const warehouseApi = await login('warehouseadmin');
    const confirmed = await warehouseApi.post(`/api/orders/${order.id}/transitions`, { data: { to: 'FOR_PAYMENT' } });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
    const accounting = await login('accounting');
    let paymentId: string | undefined;
    await expect(async () => {
      const list = (await (await accounting.get(`/api/payments?search=${encodeURIComponent(order.orderNumber)}`)).json()) as {
        items: Array<{ id: string; orderNumber: string; nextAction: string | null }>;
      };
      paymentId = list.items.find((p) => p.orderNumber === order.orderNumber && p.nextAction)?.id;
      expect(paymentId).toBeDefined();
    }).toPass({ timeout: 30_000 });
    const paid = await accounting.post(`/api/payments/${paymentId}/confirm`, {
      headers: { 'idempotency-key': uniqueName('pay') },
      data: { invoiceNumber: uniqueName('INV'), receiptNumber: 'OR-2001', note: '' },
    });
    expect(paid.status(), await paid.text()).toBe(200);
    // The payment event moves the order to PREPARING a moment later.
    await expect(async () => {
      const read = (await (await warehouseApi.get(`/api/orders/${order.id}`)).json()) as { order: { status: string } };
      expect(read.order.status).toBe('PREPARING');
    }).toPass({ timeout: 30_000 });

    const context = await browser.newContext({ baseURL });
    try {
      const packer = await context.newPage();
      await signInAs(packer, 'warehousestaff', DEMO_PASSWORD, '/admin/warehouse-bins');
      await packer.goto(`/admin/orders/purchased/${order.id}`);
      await expect(packer.getByRole('heading', { name: `Order ${order.orderNumber}` })).toBeVisible();
      await expect(packer.getByText('PREPARING', { exact: true }).first()).toBeVisible();
      const toShip = packer.getByRole('button', { name: 'To Ship Order' });
      const scanDialog = async () => {
        await packer.getByRole('button', { name: `Scan ${sale.name}` }).click();
        const dialog = packer.getByRole('dialog', { name: `Scan ${sale.name}` });
        return { dialog, code: dialog.getByRole('textbox', { name: 'Serial code' }), list: dialog.getByRole('list', { name: 'Scanned serial codes' }) };
      };

      // One item scanned (typed, as a keyboard-wedge scanner sends it), then the page is reloaded mid-packing.
      let scan = await scanDialog();
      await scan.code.fill(sale.serials[0]!);
      await scan.code.press('Enter');
      await expect(scan.dialog.getByText(`${sale.serials[0]} added.`)).toBeVisible();
      await expect(scan.list).toContainText(sale.serials[0]!);
      await expect(toShip).toBeDisabled();
      await packer.reload();

      // The scan is still there: on the page, and in the dialog opened again.
      await expect(packer.getByRole('heading', { name: `Order ${order.orderNumber}` })).toBeVisible();
      await expect(packer.getByRole('region', { name: 'Products' })).toContainText('1 / 2 scanned');
      await expect(toShip).toBeDisabled();
      scan = await scanDialog();
      await expect(scan.dialog.getByText('Scanned 1 of 2')).toBeVisible();
      await expect(scan.list).toContainText(sale.serials[0]!);
      await expect(scan.dialog.getByRole('button', { name: 'OK' })).toBeDisabled();
      // It is still a repeat, and the rest is scanned as before.
      await scan.code.fill(sale.serials[0]!);
      await scan.code.press('Enter');
      await expect(scan.dialog.getByText('Already scanned')).toBeVisible();
      await scan.code.fill(sale.serials[1]!);
      await scan.code.press('Enter');
      await expect(scan.list).toContainText(sale.serials[1]!);
      await expect(scan.dialog.getByText('Scanned 2 of 2')).toBeVisible();
      await scan.dialog.getByRole('button', { name: 'OK' }).click();
      await expect(scan.dialog).toHaveCount(0);

      await expect(toShip).toBeEnabled();
      await toShip.click();
      await expect(packer.getByText('Order packed: ready to ship.')).toBeVisible();
      await expect(packer.getByText('TO SHIP', { exact: true }).first()).toBeVisible();
      const products = packer.getByRole('region', { name: 'Products' });
      for (const s of sale.serials.slice(0, 2)) await expect(products).toContainText(s);
    } finally {
      await context.close();
      await Promise.all([admin, shopper, warehouseApi, accounting].map((c) => c.dispose()));
    }
  });
});
