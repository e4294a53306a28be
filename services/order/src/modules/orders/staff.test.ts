import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { EVENT_STREAM, EVENTS, ORDER_TRANSITIONS } from '@dme/contracts';
import { eventEnvelope, IDENTITY_HEADERS } from '@dme/platform';
import { eventually, TEST_INTERNAL_TOKEN, type Caller, type Json } from '@dme/testing';
import { place, startOrdering, type OrderHarness } from '../../test/harness';

let h: OrderHarness;
let sale: Json;
beforeAll(async () => {
  h = await startOrdering();
  sale = await h.product({ brand: 'Braun', name: `Thermo ${randomUUID().slice(0, 6)}`, type: 'FOR_SALE', price: '20.00', damageCharges: '0.00' });
  await h.addStock({ productID: sale.id, quantity: 200 });
});
afterAll(() => h?.close());

/** A customer registered in identity (the order service learns the name from the event). */
async function registered(firstName: string, lastName: string): Promise<Caller & { idNumber: string }> {
  const id = randomUUID();
  const data = {
    id,
    idNumber: `CUS-${randomUUID().slice(0, 6)}`,
    username: `u_${randomUUID().slice(0, 8)}`,
    firstName,
    middleName: 'Reyes',
    lastName,
    suffix: '',
    email: `${id.slice(0, 8)}@example.com`,
    contactNumber: '+63 917 555 0101',
    userType: 'CUSTOMER' as const,
    status: 'ACTIVE' as const,
  };
  await h.publish(eventEnvelope('identity', { type: EVENTS.identity.userRegistered, aggregateId: id, data, version: 1 }));
  await eventually(async () => (await h.orderOrm.em.fork().execute('select 1 from ordering.customers where id = ?', [id])).length > 0, 10_000);
  return { userId: id, userType: 'CUSTOMER', idNumber: data.idNumber };
}

const buy = async (c: Caller, quantity = 1) => {
  const res = await place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: sale.id, quantity }] });
  expect(res.status).toBe(201);
  return res.body.order;
};

async function qr(path: string, as: Caller) {
  const res = await fetch(`${h.orderUrl}${path}`, {
    headers: { [IDENTITY_HEADERS.internalToken]: TEST_INTERNAL_TOKEN, [IDENTITY_HEADERS.userId]: as.userId, [IDENTITY_HEADERS.userType]: as.userType },
  });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}
function decode(png: Buffer): unknown {
  const img = PNG.sync.read(png);
  const code = jsQR(new Uint8ClampedArray(img.data), img.width, img.height);
  if (!code) throw new Error('no QR code found');
  return JSON.parse(code.data);
}

describe('staff order API: who may use it', () => {
  it('warehouse roles and the superadmin read orders; customers, accounting and drivers get 403 at the service', async () => {
    const order = await buy(h.customer());
    for (const userType of ['WAREHOUSE_STAFF', 'WAREHOUSE_ADMIN', 'SUPERADMIN'] as const) {
      const as = h.as(userType);
      expect((await h.order.get('/api/orders', { as })).status, userType).toBe(200);
      expect((await h.order.get(`/api/orders/${order.id}`, { as })).status, userType).toBe(200);
      expect((await qr(`/api/orders/${order.id}/qr.png`, as)).status, userType).toBe(200);
    }
    for (const userType of ['CUSTOMER', 'ACCOUNTING_ADMIN', 'DRIVER', 'SUPPORT'] as const) {
      const as = h.as(userType);
      expect((await h.order.get('/api/orders', { as })).status, userType).toBe(403);
      expect((await h.order.get(`/api/orders/${order.id}`, { as })).status, userType).toBe(403);
      expect((await qr(`/api/orders/${order.id}/qr.png`, as)).status, userType).toBe(403);
    }
    expect((await h.order.get(`/api/orders/${randomUUID()}`, { as: h.staff })).status).toBe(404);
    expect((await h.order.get('/api/orders/not-a-uuid', { as: h.staff })).status).toBe(404);
  });
});

describe('staff order list', () => {
  it('filters by type and status, searches by order number or customer name, newest first, paged with the total', async () => {
    const tag = randomUUID().slice(0, 6);
    const maria = await registered(`Maria${tag}`, 'Santos');
    const jose = await registered(`Jose${tag}`, 'Rizal');
    const m1 = await buy(maria);
    const m2 = await buy(maria, 2);
    const j1 = await buy(jose);
    const rental = await h.product({ brand: 'Drive', name: `Chair ${tag}`, type: 'FOR_RENT', price: '10.00', damageCharges: '100.00' });
    await h.addStock({ productID: rental.id, quantity: 3 });
    const jr = (await place(h, jose, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: rental.id, quantity: 1, noOfRentalDays: 5 }] })).body.order;
    await h.order.post(`/api/orders/${m1.id}/transitions`, { to: 'FOR_PAYMENT' }, { as: h.staff });

    const ids = (res: Json) => res.body.items.map((o: { id: string }) => o.id);
    const byName = await h.order.get(`/api/orders?search=maria${tag}`, { as: h.staff });
    expect(ids(byName)).toEqual([m2.id, m1.id]);
    expect(byName.body.total).toBe(2);
    expect(byName.body.items[0]).toEqual({
      id: m2.id,
      orderNumber: m2.orderNumber,
      createdAt: m2.createdAt,
      status: 'PENDING',
      type: 'BUY',
      typeOfOrder: 'BULK',
      totalAmount: '40.00',
      customerID: maria.userId,
      customerName: `Maria${tag} Santos`,
      // The number people read (issue 28: lists never show the internal id alone).
      customerNumber: maria.idNumber,
    });
    // First and last name together; a part of the order number; a type; a status.
    expect(ids(await h.order.get(`/api/orders?search=${encodeURIComponent(`jose${tag} riz`)}`, { as: h.staff }))).toEqual([jr.id, j1.id]);
    expect(ids(await h.order.get(`/api/orders?search=${m1.orderNumber.slice(-8)}`, { as: h.staff }))).toEqual([m1.id]);
    // A whole order number (any case) or its start: the numbers that begin with it (issue 30: an index range).
    expect(ids(await h.order.get(`/api/orders?search=${m1.orderNumber}`, { as: h.staff }))).toEqual([m1.id]);
    expect(ids(await h.order.get(`/api/orders?search=${` ${m1.orderNumber.toLowerCase()} `}`, { as: h.staff }))).toEqual([m1.id]);
    const start = m1.orderNumber.slice(0, -1);
    const started = (await h.order.get(`/api/orders?search=${start}&limit=100`, { as: h.staff })).body;
    expect(started.items.map((o: { id: string }) => o.id)).toContain(m1.id);
    expect(started.items.every((o: { orderNumber: string }) => o.orderNumber.startsWith(start))).toBe(true);
    expect(started.total).toBe(started.items.length);
    expect(ids(await h.order.get(`/api/orders?search=jose${tag}&type=RENT`, { as: h.staff }))).toEqual([jr.id]);
    expect(ids(await h.order.get(`/api/orders?search=${tag}&status=FOR_PAYMENT`, { as: h.staff }))).toEqual([m1.id]);
    expect(ids(await h.order.get(`/api/orders?search=${tag}&status=PENDING&type=BUY`, { as: h.staff }))).toEqual([j1.id, m2.id]);
    // LIKE wildcards in a search are plain characters.
    expect((await h.order.get('/api/orders?search=%25%25', { as: h.staff })).body).toEqual({ items: [], total: 0, counts: {} });
    // The tabs' counts (issue 27): every status of the same type and search, whatever the tab asked.
    expect((await h.order.get(`/api/orders?search=${tag}&type=BUY&status=DELIVERED`, { as: h.staff })).body.counts).toEqual({ PENDING: 2, FOR_PAYMENT: 1 });
    expect((await h.order.get(`/api/orders?search=${tag}`, { as: h.staff })).body.counts).toEqual({ PENDING: 3, FOR_PAYMENT: 1 });
    expect((await h.order.get(`/api/orders?search=jose${tag}&type=RENT`, { as: h.staff })).body.counts).toEqual({ PENDING: 1 });

    // Paging: newest first, the total of all matches on every page.
    const page1 = await h.order.get(`/api/orders?search=${tag}&limit=3`, { as: h.staff });
    const page2 = await h.order.get(`/api/orders?search=${tag}&limit=3&offset=3`, { as: h.staff });
    expect(ids(page1)).toEqual([jr.id, j1.id, m2.id]);
    expect(ids(page2)).toEqual([m1.id]);
    expect([page1.body.total, page2.body.total]).toEqual([4, 4]);
    expect((await h.order.get(`/api/orders?search=${tag}&offset=10`, { as: h.staff })).body).toEqual({ items: [], total: 4, counts: { PENDING: 3, FOR_PAYMENT: 1 } });
    // The whole list is newest first too.
    const all = (await h.order.get('/api/orders?limit=100', { as: h.staff })).body.items as Array<{ createdAt: string }>;
    expect(all.map((o) => o.createdAt)).toEqual([...all.map((o) => o.createdAt)].sort().reverse());

    for (const bad of ['status=NOPE', 'type=RENTAL', 'limit=0', 'limit=101', 'offset=-1', `search=${'x'.repeat(101)}`]) {
      const res = await h.order.get(`/api/orders?${bad}`, { as: h.staff });
      expect(res.status, bad).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });
});

describe('staff order detail', () => {
  it('is the Order: customer, shipping, lines, payment, tracker and the steps the caller can take', async () => {
    const tag = randomUUID().slice(0, 6);
    const c = await registered(`Ana${tag}`, 'Cruz');
    const order = await buy(c, 3);
    const res = await h.order.get(`/api/orders/${order.id}`, { as: h.staff });
    expect(res.status).toBe(200);
    const o = res.body.order;
    // The same order the customer reads, but with the staff member's steps.
    const mine = (await h.order.get(`/api/my/orders/${order.id}`, { as: c })).body.order;
    expect({ ...o, allowedTransitions: mine.allowedTransitions }).toEqual(mine);
    expect(o.allowedTransitions).toEqual(['FOR_PAYMENT', 'CANCELLED']);
    expect(mine.allowedTransitions).toEqual(['CANCELLED']);
    expect(o.customer).toMatchObject({ firstName: `Ana${tag}`, middleName: 'Reyes', lastName: 'Cruz', email: expect.stringContaining('@example.com'), contactNumber: '+63 917 555 0101' });
    expect(o).toMatchObject({ customerName: `Ana${tag} Cruz`, deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '121000' });
    expect(o.products).toEqual([expect.objectContaining({ productID: sale.id, quantity: 3, productAmount: '20.00', lineTotal: '60.00', serialCodes: [] })]);
    expect(o.payment).toEqual({ status: 'UNPAID', totalOrderPayment: '60.00', totalPartialPayment: null, extraCharge: null, overallTotal: null, balance: null, dueDate: null, records: [], deposit: '0.00', lateFees: null, depositApplied: null, depositRefund: null, refunds: [] });
    expect(o.orderTracker).toEqual([{ title: 'Order placed', status: 'PENDING', createdAt: o.createdAt }]);
  });
});

describe('PENDING → FOR_PAYMENT (staff, order:process)', () => {
  it('moves the order with a tracker entry and a dme.order.status_changed event; the payment becomes payable', async () => {
    const jsm = await jetstreamManager(h.nc);
    const durable = `probe-${randomUUID().slice(0, 8)}`;
    await jsm.consumers.add(EVENT_STREAM, { durable_name: durable, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New, filter_subject: EVENTS.order.statusChanged });
    const c = h.customer();
    const order = await buy(c, 2);
    const admin = h.as('WAREHOUSE_ADMIN');
    const res = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'FOR_PAYMENT' }, { as: admin });
    expect(res.status).toBe(200);
    const o = res.body.order;
    const title = ORDER_TRANSITIONS.find((t) => t.from === 'PENDING' && t.to === 'FOR_PAYMENT')!.title;
    expect(o.status).toBe('FOR_PAYMENT');
    expect(o.orderTracker.map((t: { title: string; status: string }) => [t.title, t.status])).toEqual([
      ['Order placed', 'PENDING'],
      [title, 'FOR_PAYMENT'],
    ]);
    expect(o.allowedTransitions).toEqual(['CANCELLED']);
    expect(o.payment.status).toBe('UNPAID');
    // The customer sees it too, and may still cancel.
    const mine = (await h.order.get(`/api/my/orders/${order.id}`, { as: c })).body.order;
    expect(mine).toMatchObject({ status: 'FOR_PAYMENT', allowedTransitions: ['CANCELLED'] });

    const consumer = await jetstream(h.nc).consumers.get(EVENT_STREAM, durable);
    const seen: Json[] = [];
    await eventually(async () => {
      const batch = await consumer.fetch({ max_messages: 50, expires: 1000 });
      for await (const m of batch) {
        const e = m.json<Json>();
        if (e.data.orderId === order.id) seen.push(e);
        m.ack();
      }
      return seen.length > 0;
    }, 10_000);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      type: EVENTS.order.statusChanged,
      source: 'order',
      aggregateId: order.id,
      data: { orderId: order.id, orderNumber: order.orderNumber, customerId: c.userId, type: 'BUY', from: 'PENDING', to: 'FOR_PAYMENT', by: admin.userId, extraCharge: null },
    });
    await jsm.consumers.delete(EVENT_STREAM, durable);

    // Not twice, and nobody else: the customer 403; accounting and support see no orders at all
    // (403 whatever the id); a driver cannot see an order not waiting for a driver (404).
    expect((await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'FOR_PAYMENT' }, { as: admin })).status).toBe(409);
    const other = await buy(c);
    expect((await h.order.post(`/api/orders/${other.id}/transitions`, { to: 'FOR_PAYMENT' }, { as: c })).status).toBe(403);
    for (const userType of ['ACCOUNTING_ADMIN', 'SUPPORT'] as const) {
      expect((await h.order.post(`/api/orders/${other.id}/transitions`, { to: 'FOR_PAYMENT' }, { as: h.as(userType) })).status, userType).toBe(403);
      expect((await h.order.post(`/api/orders/${randomUUID()}/transitions`, { to: 'FOR_PAYMENT' }, { as: h.as(userType) })).status, userType).toBe(403);
    }
    expect((await h.order.post(`/api/orders/${other.id}/transitions`, { to: 'FOR_PAYMENT' }, { as: h.as('DRIVER') })).status).toBe(404);
    // A payment-only step asked by a person.
    const paid = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'PREPARING' }, { as: admin });
    expect(paid.status).toBe(403);
    expect(paid.body.detail).toBe('This step happens when the payment is confirmed.');
    // Packing data on another step is bad input, and changes nothing.
    const bad = await h.order.post(`/api/orders/${other.id}/transitions`, { to: 'FOR_PAYMENT', packing: [{ lineID: randomUUID(), serialCodes: ['X-1'] }] }, { as: admin });
    expect(bad.status).toBe(400);
    expect((await h.order.get(`/api/orders/${other.id}`, { as: admin })).body.order.status).toBe('PENDING');
  });
});

describe('order QR codes', () => {
  it('staff and the owner download a PNG (QR_Code.png) decoding to {"orderID","orderNumber"}; another customer gets 404', async () => {
    const c = h.customer();
    const order = await buy(c);
    const staff = await qr(`/api/orders/${order.id}/qr.png`, h.staff);
    expect(staff.status).toBe(200);
    expect(staff.headers.get('content-type')).toBe('image/png');
    expect(staff.headers.get('content-disposition')).toBe('attachment; filename="QR_Code.png"');
    expect(decode(staff.body)).toEqual({ orderID: order.id, orderNumber: order.orderNumber });
    const own = await qr(`/api/my/orders/${order.id}/qr.png`, c);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-disposition')).toBe('attachment; filename="QR_Code.png"');
    expect(decode(own.body)).toEqual({ orderID: order.id, orderNumber: order.orderNumber });

    const stranger = await qr(`/api/my/orders/${order.id}/qr.png`, h.customer());
    const unknown = await qr(`/api/my/orders/${randomUUID()}/qr.png`, c);
    expect([stranger.status, unknown.status]).toEqual([404, 404]);
    const problem = (b: Buffer) => {
      const { instance: _instance, ...rest } = JSON.parse(b.toString());
      return rest;
    };
    expect(problem(stranger.body)).toEqual(problem(unknown.body));
    expect((await qr(`/api/orders/${randomUUID()}/qr.png`, h.staff)).status).toBe(404);
    expect((await qr(`/api/my/orders/${order.id}/qr.png`, h.staff)).status).toBe(403);
  });
});
