/**
 * Fulfilment and payments through the running stack (issue 9), as the staff screens drive it:
 * a customer's purchase is confirmed by the warehouse, paid at accounting WHILE THE ORDER SERVICE
 * IS DOWN (killed with SIGKILL; the launcher brings it back), and the order still moves on to
 * PREPARING once the order service is up again (the payment event waits in JetStream); then it is
 * packed by serial codes and the customer downloads the invoice (PDF, text read back) and the
 * order QR (decoded), which the demo driver then scans to take the order out (before that, the
 * order is not the driver's to read). Every step goes through the gateway with the demo accounts' sessions.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { validPerson } from '@dme/testing';
import { call, signIn, until, uploadImage, type Answer } from './lib/api';
import { env } from './lib/env';
import { json, send } from './lib/http';

async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, disableFontFace: true }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return parts.join('\n');
}

let admin = '';
let warehouse = '';
let accounting = '';
let customer = '';
let other = '';
let product: { id: string; name: string };
let serials: string[] = [];

beforeAll(async () => {
  [admin, warehouse, accounting] = await Promise.all([signIn('superadmin'), signIn('warehouseadmin'), signIn('accounting')]);
  // A product of its own, so other suites' orders cannot take its stock.
  const image = await uploadImage(admin);
  const bin = await call('POST', '/api/warehouse-bins', { cookie: admin, body: { name: `Fulfilment ${randomUUID().slice(0, 8)}`, description: 'system test' } });
  const created = await call('POST', '/api/products', {
    cookie: admin,
    body: { brand: 'Omron', name: `BP Monitor ${randomUUID().slice(0, 6)}`, description: 'Upper arm', type: 'FOR_SALE', image, price: '45.50', damageCharges: '0.00' },
  });
  expect(created.status).toBe(201);
  product = (created.body as { product: { id: string; name: string } }).product;
  const stock = await call('POST', '/api/stocks', { cookie: admin, body: { productID: product.id, warehouseBinID: (bin.body as { bin: { id: string } }).bin.id, quantity: 3 } });
  expect(stock.status).toBe(201);
  serials = (stock.body as { items: Array<{ serialCode: string }> }).items.map((i) => i.serialCode);
  for (const who of ['c', 'o']) {
    const person = validPerson({ username: `ful_${who}_${randomUUID().slice(0, 6)}`, image });
    expect((await call('POST', '/api/auth/register', { body: person })).status).toBe(201);
    const cookie = await signIn(person.username, person.password);
    if (who === 'c') customer = cookie;
    else other = cookie;
  }
});

afterAll(async () => {
  // The order service was killed: make sure it is back before the next suite runs.
  await until('order service back', async () => ((await call('GET', '/api/cart?type=BUY', { cookie: customer })).status === 200 ? true : undefined), 30_000).catch(() => undefined);
});

async function orderPid(): Promise<number> {
  const r = await send(env.serviceUrls.order!, { method: 'GET', path: '/health/live' }, { timeoutMs: 3000 });
  const body = json(r) as { pid?: number } | undefined;
  if (typeof body?.pid !== 'number') throw new Error('order /health/live did not answer with a pid');
  return body.pid;
}

describe('a purchase from the shop to TO_SHIP (issue 9)', () => {
  it('confirmed, paid while the order service is down, packed by serial code; the customer gets the invoice and the QR', async () => {
    // The customer orders 2.
    const placed = await call('POST', '/api/orders', {
      cookie: customer,
      headers: { 'idempotency-key': randomUUID() },
      body: { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: product.id, quantity: 2 }], deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '121000', note: '' },
    });
    expect(placed.status).toBe(201);
    const order = (placed.body as { order: { id: string; orderNumber: string; totalAmount: string } }).order;
    expect(order.totalAmount).toBe('91.00');

    // Accounting cannot take it before the warehouse confirms it.
    const pending = await until('the payment appears', async () => {
      const list = await call('GET', `/api/payments?search=${encodeURIComponent(order.orderNumber)}`, { cookie: accounting });
      return (list.body as { items: Array<{ id: string; status: string; nextAction: string | null }> }).items[0];
    });
    expect(pending).toMatchObject({ status: 'PENDING', nextAction: null });
    expect((await call('POST', `/api/payments/${pending.id}/confirm`, { cookie: accounting, headers: { 'idempotency-key': randomUUID() }, body: { invoiceNumber: 'INV-1', receiptNumber: 'OR-1', note: '' } })).status).toBe(409);

    // The warehouse confirms: PENDING → FOR_PAYMENT; the customer and accounting cannot.
    expect((await call('POST', `/api/orders/${order.id}/transitions`, { cookie: accounting, body: { to: 'FOR_PAYMENT' } })).status).toBe(403);
    const confirmed = await call('POST', `/api/orders/${order.id}/transitions`, { cookie: warehouse, body: { to: 'FOR_PAYMENT' } });
    expect(confirmed.status).toBe(200);
    expect((confirmed.body as { order: { status: string } }).order.status).toBe('FOR_PAYMENT');
    const payable = await until('the payment becomes payable', async () => {
      const got = await call('GET', `/api/payments/${pending.id}`, { cookie: accounting });
      const p = (got.body as { payment: { nextAction: string | null; totalOrderPayment: string } }).payment;
      return p.nextAction === 'MARK_AS_PAID' ? p : undefined;
    });
    expect(payable.totalOrderPayment).toBe('91.00');

    // The order service goes down; accounting marks the payment paid meanwhile.
    const pid = await orderPid();
    process.kill(pid, 'SIGKILL');
    const key = randomUUID();
    const invoice = `INV-${randomUUID().slice(0, 6)}`;
    const paid = await call('POST', `/api/payments/${pending.id}/confirm`, { cookie: accounting, headers: { 'idempotency-key': key }, body: { invoiceNumber: invoice, receiptNumber: 'OR-77', note: 'cash' } });
    expect(paid.status).toBe(200);
    expect((paid.body as { payment: { status: string; type: string; overallTotal: string } }).payment).toMatchObject({ status: 'PAID', type: 'FULL', overallTotal: '91.00' });
    // The same request again: the same answer, one record.
    const again = await call('POST', `/api/payments/${pending.id}/confirm`, { cookie: accounting, headers: { 'idempotency-key': key }, body: { invoiceNumber: invoice, receiptNumber: 'OR-77', note: 'cash' } });
    expect(again.body).toEqual(paid.body);
    expect((again.body as { payment: { records: unknown[] } }).payment.records).toHaveLength(1);

    // Back up (a new process), the order service takes the payment and the order moves to PREPARING.
    // Up to JetStream's ack wait (30 s) later: a message the server handed to the killed process's
    // pending pull before it noticed the process was gone is delivered again only then.
    let seen = '';
    const preparing = await until(
      'the order reaches PREPARING after the order service restarts',
      async () => {
        const got = await call('GET', `/api/orders/${order.id}`, { cookie: warehouse });
        const o = (got.body as { order?: { status: string; payment: { status: string; records: Array<{ invoiceNumber: string }> }; products: Array<{ id: string }> } }).order;
        seen = `${got.status} ${o ? `${o.status} payment ${JSON.stringify(o.payment)}` : JSON.stringify(got.body)}`;
        return o?.status === 'PREPARING' ? o : undefined;
      },
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; last seen: ${seen}`);
    });
    expect(await orderPid()).not.toBe(pid);
    expect(preparing.payment.status).toBe('PAID');
    expect(preparing.payment.records.map((r) => r.invoiceNumber)).toEqual([invoice]);

    // Packing: a code of the wrong count is refused; the two scanned codes ship it.
    const lineID = preparing.products[0]!.id;
    const short = await call('POST', `/api/orders/${order.id}/transitions`, { cookie: warehouse, body: { to: 'TO_SHIP', packing: [{ lineID, serialCodes: [serials[0]] }] } });
    expect(short.status).toBe(409);
    const packed = await call('POST', `/api/orders/${order.id}/transitions`, { cookie: warehouse, body: { to: 'TO_SHIP', packing: [{ lineID, serialCodes: [serials[0], serials[1]] }] } });
    expect(packed.status, JSON.stringify(packed.body)).toBe(200);
    const shipped = (packed.body as { order: { status: string; products: Array<{ serialCodes: Array<{ serialCode: string }> }> } }).order;
    expect(shipped.status).toBe('TO_SHIP');
    expect(shipped.products[0]!.serialCodes.map((s) => s.serialCode).sort()).toEqual([serials[0], serials[1]].sort());
    const counts = (await call('GET', `/api/admin/products/${product.id}`, { cookie: admin })).body as { product: { availableQuantity: number; soldQuantity: number } };
    expect(counts.product).toMatchObject({ availableQuantity: 1, soldQuantity: 2 });

    // The customer's invoice and QR; another customer gets 404 for both.
    const pdf = await call('GET', `/api/my/orders/${order.id}/invoice.pdf`, { cookie: customer });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toContain('INVOICE.pdf');
    const text = await pdfText(pdf.bytes);
    // pdf.js splits text into runs wherever the layout does: compare without white space.
    const flat = text.replace(/\s+/g, '');
    for (const want of [invoice, 'OR-77', order.orderNumber, product.name, '$91.00', 'INVOICE']) expect(flat).toContain(want.replace(/\s+/g, ''));
    const qr = await call('GET', `/api/my/orders/${order.id}/qr.png`, { cookie: customer });
    expect(qr.status).toBe(200);
    const png = PNG.sync.read(qr.bytes);
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(JSON.parse(decoded!.data)).toEqual({ orderID: order.id, orderNumber: order.orderNumber });
    expect((await call('GET', `/api/my/orders/${order.id}/invoice.pdf`, { cookie: other })).status).toBe(404);
    expect((await call('GET', `/api/my/orders/${order.id}/qr.png`, { cookie: other })).status).toBe(404);

    // The driver (issue 22): an order waiting for a driver is not theirs to read (the customer's
    // details stay hidden), and a scan that cannot take it answers exactly like a code naming no
    // order; the scan of its QR for delivery takes it, and then it is theirs to read.
    const driver = await signIn('driver');
    const scan = (code: string, purpose: 'DELIVERY' | 'PICKUP') => call('POST', '/api/driver/scan', { cookie: driver, body: { purpose, code } });
    const whole = (r: Answer) => ({ status: r.status, type: r.headers.get('content-type'), text: r.bytes.toString('utf8') });
    const unknownRead = await call('GET', `/api/driver/orders/${randomUUID()}`, { cookie: driver });
    const waitingRead = await call('GET', `/api/driver/orders/${order.id}`, { cookie: driver });
    expect(unknownRead.status).toBe(404);
    expect([waitingRead.status, waitingRead.headers.get('content-type')]).toEqual([404, unknownRead.headers.get('content-type')]);
    expect({ ...(waitingRead.body as object), instance: null }).toEqual({ ...(unknownRead.body as object), instance: null });
    const unknownScan = whole(await scan('ORD-19990101-000000', 'PICKUP'));
    expect(unknownScan.status).toBe(404);
    expect(whole(await scan(decoded!.data, 'PICKUP'))).toEqual(unknownScan);
    expect(whole(await scan(order.orderNumber, 'PICKUP'))).toEqual(unknownScan);
    expect((await scan(decoded!.data, 'DELIVERY')).status).toBe(200);
    const mine = await call('GET', `/api/driver/orders/${order.id}`, { cookie: driver });
    expect(mine.status).toBe(200);
    expect((mine.body as { order: { status: string; deliveryAddress: string } }).order).toMatchObject({ status: 'OUT_FOR_DELIVERY', deliveryAddress: '12 Rizal St' });
  }, 150_000);
});
