import { readFile } from 'node:fs/promises';
import type { APIResponse, Browser, Page } from '@playwright/test';
import { cameraLaunchOptions, pictureVideo } from './camera';
import { expect, test } from './fixtures';
import { answerPopconfirm, registerByApi, uniqueName } from './helpers';
import { allMail, waitForMail } from './mail';
import type { Json } from '@dme/testing';
import { apiSignedIn, browserContexts, doorScan, handOverApi, openStaffOrder, rentFromCart, signHandover, pdfText, product, signedIn, takePayment, untilStatus } from './journey';
import { deliveredDaysAgo } from './db';

/** The status tag of an order's detail shows `status` (underscores as spaces), without a reload. */
const showsStatus = (page: Page, status: string, timeout = 20_000) => expect(page.getByText(status.replace(/_/g, ' '), { exact: true }).first()).toBeVisible({ timeout });

test.describe('delivery, rentals and returns (issue 10)', () => {
  test('one rental from cart to COMPLETED across customer, warehouse, accounting and driver, with a fix request; the driver\'s camera reads the order QR', async ({ browser, playwright, baseURL }, testInfo) => {
    // The longest journey (four roles, a camera scan, e-mails): about 4 minutes on a busy 2-core machine.
    test.setTimeout(420_000);
    const { newContext, close } = browserContexts(browser, baseURL);
    let camera: Browser | undefined;
    try {
      const admin = await playwright.request.newContext({ baseURL });
      expect((await admin.post('/api/auth/login', { data: { username: 'superadmin', password: process.env.E2E_DEMO_PASSWORD ?? 'demo-pass-2026' } })).status()).toBe(200);
      // 20.00 a day, damage or lost fee 150.00, one unit in stock.
      const rent = await product(admin, 'FOR_RENT', '20.00', 1);

      // The customer rents it for 2 days from the cart.
      const customer = await registerByApi(admin);
      const shopper = await signedIn(newContext, customer.username, '/dashboard', customer.password);
      await shopper.goto(`/product-description/${rent.id}`);
      await expect(shopper.getByRole('heading', { name: rent.name })).toBeVisible();
      await shopper.getByRole('button', { name: 'Increase rental days' }).click();
      const { orderId, orderNumber } = await rentFromCart(shopper, rent.name, '$40.00');
      expect(orderNumber).toMatch(/^ORD-\d{8}-\d{6}$/);

      // Warehouse confirms; accounting takes the first day; warehouse packs by the typed serial code.
      const warehouse = await signedIn(newContext, 'warehouseadmin', '/admin/warehouse-bins');
      await openStaffOrder(warehouse, 'Rentals', 'Pending', orderNumber);
      await warehouse.getByRole('button', { name: 'Confirm Order' }).click();
      await answerPopconfirm(warehouse, 'Confirm');
      await expect(warehouse.getByText('FOR PAYMENT', { exact: true }).first()).toBeVisible();
      const accounting = await signedIn(newContext, 'accounting', '/admin/payments');
      await takePayment(accounting, orderNumber, 'Pay Partial Payment', uniqueName('INV'), 'OR-2001');
      await warehouse.goto(`/admin/orders/rentals/${orderId}`);
      await untilStatus(warehouse, 'PREPARING');
      await warehouse.getByRole('button', { name: `Scan ${rent.name}` }).click();
      const packing = warehouse.getByRole('dialog', { name: `Scan ${rent.name}` });
      await packing.getByRole('textbox', { name: 'Serial code' }).fill(rent.serials[0]!);
      await packing.getByRole('textbox', { name: 'Serial code' }).press('Enter');
      await packing.getByRole('button', { name: 'OK' }).click();
      await warehouse.getByRole('button', { name: 'To Ship Order' }).click();
      await expect(warehouse.getByText('TO SHIP', { exact: true }).first()).toBeVisible();

      // The customer keeps the order open: it changes without a reload from here on.
      await shopper.goto(`/orders/rentals/${orderId}`);
      await showsStatus(shopper, 'TO_SHIP');

      // The driver's camera reads the order QR (a fake video made from the order's QR PNG): out for delivery.
      const qr = await admin.get(`/api/orders/${orderId}/qr.png`);
      expect(qr.status()).toBe(200);
      const video = testInfo.outputPath('order-qr.y4m');
      await pictureVideo(await qr.body(), video);
      camera = await playwright.chromium.launch(cameraLaunchOptions(video));
      const cameraContext = await camera.newContext({ baseURL });
      const driverCam = await signedIn(async () => cameraContext, 'driver', '/admin/for-delivery');
      await driverCam.getByRole('button', { name: 'Scan Order' }).click();
      const scanDialog = driverCam.getByRole('dialog', { name: 'Scan Order' });
      await expect(scanDialog.getByText(`Order ${orderNumber} is out for delivery with you.`).first()).toBeVisible({ timeout: 30_000 });
      await scanDialog.getByRole('button', { name: 'Done' }).click();
      const deliveries = driverCam.getByRole('row', { name: new RegExp(orderNumber) });
      await expect(deliveries).toContainText('OUT FOR DELIVERY');
      await showsStatus(shopper, 'OUT_FOR_DELIVERY');
      await camera.close();
      camera = undefined;

      // At the door the driver types the order number: the hand-over screen opens; the recipient
      // signs (issue 28): delivered, and the customer's page says so by itself.
      const driver = await signedIn(newContext, 'driver', '/admin/for-delivery');
      await doorScan(driver, orderNumber, 'delivery');
      await signHandover(driver, 'Lorna Reyes', 'Family member');
      await expect(driver.getByText(`Order ${orderNumber} delivered to Lorna Reyes.`).first()).toBeVisible();
      await expect(driver).toHaveURL(/\/admin\/for-delivery$/);
      await showsStatus(shopper, 'DELIVERED');
      // The proof is on the customer's order, with its ticket (the signer's name in the PDF).
      const proof = shopper.getByRole('region', { name: 'Proof of delivery' });
      await expect(proof).toContainText('Lorna Reyes');
      await expect(proof.getByRole('img', { name: 'Signature of Lorna Reyes' })).toBeVisible();
      const ticketDownload = shopper.waitForEvent('download');
      await proof.getByRole('button', { name: 'Delivery ticket' }).click();
      const ticket = await ticketDownload;
      expect(ticket.suggestedFilename()).toBe('DELIVERY_TICKET.pdf');
      const ticketText = (await pdfText((await ticket.path())!)).replace(/\s+/g, ' ');
      expect(ticketText).toContain('Signed by Lorna Reyes Family member');
      expect(ticketText).toContain(rent.serials[0]!);

      // The customer files a fix request ('Select at least 1 product!' first).
      await shopper.getByRole('button', { name: 'Request Fix' }).click();
      const request = shopper.getByRole('dialog', { name: 'Request Fix' });
      await request.getByRole('button', { name: 'Submit' }).click();
      await expect(request.getByText('Select at least 1 product!')).toBeVisible();
      await request.getByRole('checkbox', { name: new RegExp(rent.name) }).check();
      await request.getByLabel('Note').fill('The brake squeaks');
      await request.getByRole('button', { name: 'Submit' }).click();
      await expect(shopper.getByText('Request Successfully Submitted!')).toBeVisible();
      const customerRequests = shopper.getByRole('region', { name: 'Requests' });
      await expect(customerRequests).toContainText('The brake squeaks');
      await expect(customerRequests).toContainText('PENDING');

      // The warehouse works it: On Progress, then Done; the customer's table follows live.
      await warehouse.goto(`/admin/orders/rentals/${orderId}`);
      const staffRequests = warehouse.getByRole('region', { name: 'Requests' });
      await expect(staffRequests).toContainText('The brake squeaks');
      await staffRequests.getByRole('button', { name: 'Mark as On Progress' }).click();
      await answerPopconfirm(warehouse, 'Yes');
      await expect(staffRequests.getByRole('button', { name: 'Mark as Done' })).toBeVisible();
      await staffRequests.getByRole('button', { name: 'Mark as Done' }).click();
      await answerPopconfirm(warehouse, 'Yes');
      await expect(staffRequests).toContainText('DONE');
      await expect(customerRequests).toContainText('DONE', { timeout: 20_000 });

      // Not due yet: For Return is disabled. Two days later (2 rental days) it is due today.
      await expect(warehouse.getByRole('button', { name: 'For Return' })).toBeDisabled();
      await deliveredDaysAgo(orderId, 2);
      await shopper.reload();
      await expect(shopper.getByText('Some products are due for return today.').first()).toBeVisible();
      // The reminder of the day goes out by e-mail too (the test stack looks for reminders every 2 s, at any hour).
      await waitForMail(customer.email, { subject: `Your rental ${orderNumber} is due today` });
      await warehouse.reload();
      await warehouse.getByRole('button', { name: 'For Return' }).click();
      await warehouse.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
      await showsStatus(warehouse, 'FOR_RETURN');

      // Pick-up by typed order number at the door, signed for.
      await driver.goto('/admin/for-pickup');
      await doorScan(driver, orderNumber, 'pickup');
      await signHandover(driver, 'Lorna Reyes', 'Family member');
      await expect(driver.getByText(`Order ${orderNumber} picked up from Lorna Reyes.`).first()).toBeVisible();
      await expect(driver.getByRole('row', { name: new RegExp(orderNumber) })).toContainText('FOR PICK UP');

      // Returns inspection: the unit came back damaged; then the full payment is asked (extra 150.00).
      await warehouse.reload();
      await showsStatus(warehouse, 'FOR_PICK_UP');
      const serial = rent.serials[0]!;
      await expect(warehouse.getByRole('button', { name: 'For Full Payment' })).toBeDisabled();
      await warehouse.getByRole('button', { name: `Mark ${serial} as DAMAGED` }).click();
      await answerPopconfirm(warehouse, 'Yes');
      await expect(warehouse.getByRole('region', { name: 'Products' })).toContainText('RETURNED');
      await warehouse.getByRole('button', { name: 'For Full Payment' }).click();
      const ask = warehouse.getByRole('dialog');
      await expect(ask).toContainText('$150.00');
      await ask.getByRole('button', { name: 'Yes' }).click();
      await showsStatus(warehouse, 'FOR_FULL_PAYMENT');

      // The customer sees what is due: extra 150.00, overall 40.00 + 150.00, balance 40.00 − 20.00 + 150.00.
      const payment = shopper.getByRole('region', { name: 'Payment Information' });
      await expect(payment).toContainText('$150.00', { timeout: 20_000 });
      await expect(payment).toContainText('$190.00');
      await expect(payment).toContainText('$170.00');

      // Accounting completes the payment: the order is COMPLETED by the event, live on the customer's page.
      const fullInvoice = uniqueName('INV');
      await takePayment(accounting, orderNumber, 'Complete Payment', fullInvoice, 'OR-2002', 'For Full Payment');
      await showsStatus(shopper, 'COMPLETED', 30_000);
      await expect(shopper.getByRole('region', { name: 'Payment Records' })).toContainText(fullInvoice);
      const download = shopper.waitForEvent('download');
      await shopper.getByRole('link', { name: 'Download FULL_PAYMENT_INVOICE.pdf' }).click();
      const pdf = await download;
      expect(pdf.suggestedFilename()).toBe('FULL_PAYMENT_INVOICE.pdf');
      const flat = (await pdfText((await pdf.path())!)).replace(/\s+/g, '');
      for (const want of ['Completion of payment (100%)', fullInvoice, 'OR-2002', orderNumber]) expect(flat).toContain(want.replace(/\s+/g, ''));

      // The warehouse finds it under Ongoing Rentals → Picked up.
      await warehouse.goto('/admin/ongoing-rentals?tab=PICKED_UP');
      await warehouse.getByRole('tab', { name: 'Picked up' }).click();
      await expect(warehouse.getByRole('row', { name: new RegExp(orderNumber) })).toBeVisible();
      await admin.dispose();

      // The customer heard of every step by e-mail, each once, invoices attached (issue 24).
      await expect.poll(async () => (await allMail(customer.email)).filter((m) => m.subject === `Payment received for ${orderNumber}`).length, { timeout: 20_000 }).toBe(2);
      const mails = (await allMail(customer.email)).reverse();
      expect(mails.map((m) => m.subject).sort()).toEqual(
        [
          'Confirm your e-mail address for DME Supply',
          `Your rental ${orderNumber} is placed`,
          `Payment received for ${orderNumber}`,
          `${orderNumber} is on its way`,
          `${orderNumber} was delivered`,
          `Your fix request for ${orderNumber} is received`,
          `Your fix request for ${orderNumber} is in progress`,
          `Your fix request for ${orderNumber} is done`,
          `Your rental ${orderNumber} is due today`,
          `We will pick up ${orderNumber}`,
          `Full payment due for ${orderNumber}`,
          `Payment received for ${orderNumber}`,
        ].sort(),
      );
      const invoices = mails.filter((m) => m.subject.startsWith('Payment received')).map((m) => m.attachments.map((a) => a.filename));
      expect(invoices).toEqual([['INITIAL_PAYMENT_INVOICE.pdf'], ['FULL_PAYMENT_INVOICE.pdf']]);
      expect(mails.every((m) => m.envelopeTo.length === 1 && m.envelopeTo[0] === customer.email)).toBe(true);
    } finally {
      await camera?.close();
      await close();
    }
  });

  test("a rental paid in full: the customer downloads each payment's invoice from the order page, the initial one too (issue 22)", async ({ browser, playwright, baseURL }) => {
    test.setTimeout(180_000);
    const login = (username: string, password?: string) => apiSignedIn(playwright, baseURL, username, password);
    const ok = async (res: Promise<APIResponse>) => {
      const r = await res;
      expect(r.status(), await r.text()).toBeLessThan(300);
      return (await r.json()) as Json;
    };
    // The staff steps through the API as the superadmin (the journey above drives their screens).
    const admin = await login('superadmin');
    const rent = await product(admin, 'FOR_RENT', '20.00', 1);
    const customer = await registerByApi(admin);
    const shopperApi = await login(customer.username, customer.password);
    const { order } = await ok(
      shopperApi.post('/api/orders', {
        headers: { 'idempotency-key': uniqueName('key') },
        data: { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: rent.id, quantity: 1, noOfRentalDays: 1 }], deliveryAddress: '5 Mabini St', deliveryCity: 'Quezon City', deliveryState: 'Metro Manila', deliveryZipcode: '110100', note: '' },
      }),
    );
    const step = (to: string, extra: Json = {}) => ok(admin.post(`/api/orders/${order.id}/transitions`, { data: { to, ...extra } }));
    const scan = (purpose: 'DELIVERY' | 'PICKUP') => ok(admin.post('/api/driver/scan', { data: { purpose, code: order.orderNumber } }));
    const staffOrder = async () => (await ok(admin.get(`/api/orders/${order.id}`))).order;
    const pay = async (action: string, invoiceNumber: string, receiptNumber: string) => {
      let id = '';
      await expect(async () => {
        const { items } = await ok(admin.get(`/api/payments?search=${encodeURIComponent(order.orderNumber)}`));
        const p = items.find((i: Json) => i.orderNumber === order.orderNumber);
        expect(p?.nextAction).toBe(action);
        id = p.id;
      }).toPass({ timeout: 30_000 });
      await ok(admin.post(`/api/payments/${id}/confirm`, { headers: { 'idempotency-key': uniqueName('pay') }, data: { invoiceNumber, receiptNumber, note: '' } }));
    };
    const until = (status: string) => expect(async () => expect((await staffOrder()).status).toBe(status)).toPass({ timeout: 30_000 });

    const initialInvoice = uniqueName('INV');
    const fullInvoice = uniqueName('INV');
    await step('FOR_PAYMENT');
    await pay('PAY_PARTIAL', initialInvoice, 'OR-3001');
    await until('PREPARING');
    const lineID = (await staffOrder()).products[0].id;
    await step('TO_SHIP', { packing: [{ lineID, serialCodes: [rent.serials[0]] }] });
    await scan('DELIVERY');
    expect((await scan('DELIVERY')).handover).toBe('DELIVERY');
    await handOverApi(admin, order.id);
    await until('DELIVERED');
    await deliveredDaysAgo(order.id, 1);
    await step('FOR_RETURN');
    expect((await scan('PICKUP')).handover).toBe('PICKUP');
    await handOverApi(admin, order.id, 'PICKUP');
    await until('FOR_PICK_UP');
    await ok(admin.post(`/api/orders/${order.id}/serials/${rent.serials[0]}/return`, { data: { status: 'OK' } }));
    await step('FOR_FULL_PAYMENT');
    await pay('COMPLETE_PAYMENT', fullInvoice, 'OR-3002');
    await until('COMPLETED');

    const context = await browser.newContext({ baseURL, acceptDownloads: true });
    try {
      const shopper = await signedIn(async () => context, customer.username, '/dashboard', customer.password);
      await shopper.goto(`/orders/rentals/${order.id}`);
      const records = shopper.getByRole('region', { name: 'Payment Records' });
      await expect(records).toContainText(fullInvoice);
      for (const [file, invoice, receipt] of [
        ['INITIAL_PAYMENT_INVOICE.pdf', initialInvoice, 'OR-3001'],
        ['FULL_PAYMENT_INVOICE.pdf', fullInvoice, 'OR-3002'],
      ] as const) {
        const row = records.getByRole('row', { name: new RegExp(invoice) });
        const download = shopper.waitForEvent('download');
        await row.getByRole('link', { name: `Download ${file}` }).click();
        const pdf = await download;
        expect(pdf.suggestedFilename()).toBe(file);
        const path = (await pdf.path())!;
        expect((await readFile(path)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
        const flat = (await pdfText(path)).replace(/\s+/g, '');
        for (const want of [invoice, receipt, order.orderNumber]) expect(flat, file).toContain(want);
      }
      // The initial invoice is the one of the first day: the full payment is not on it.
      const first = shopper.waitForEvent('download');
      await records.getByRole('link', { name: 'Download INITIAL_PAYMENT_INVOICE.pdf' }).click();
      expect((await pdfText((await (await first).path())!)).replace(/\s+/g, '')).not.toContain(fullInvoice);
    } finally {
      await context.close();
      await shopperApi.dispose();
      await admin.dispose();
    }
  });
});
