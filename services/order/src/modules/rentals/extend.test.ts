import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, BOOKING_MESSAGES, EVENTS, manilaDate, MAX_RENTAL_DAYS } from '@dme/contracts';
import { eventually, type Caller, type Json } from '@dme/testing';
import { handOver, paymentConfirmed, place, startOrdering, toPreparing, type OrderHarness } from '../../test/harness';

let h: OrderHarness;
let walker: Json;
let bed: Json;
beforeAll(async () => {
  h = await startOrdering();
  walker = await h.product({ brand: 'Drive', name: `Walker ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '10.00', variants: [{ name: 'Folding', price: '10.00', damageCharges: '120.35' }] });
  bed = await h.product({ brand: 'Invacare', name: `Bed ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '50.00', damageCharges: '900.10' });
});
afterAll(() => h?.close());

const scan = (as: Caller, code: string) => h.order.post('/api/driver/scan', { purpose: 'DELIVERY', code }, { as });
const exec = <T>(db: 'order' | 'catalog', q: string, params: unknown[]) => (db === 'order' ? h.orderOrm : h.catalogOrm).em.fork().execute<T[]>(q, params);
const extendMine = (order: Json, days: unknown, as: Caller) => h.order.post(`/api/my/orders/${order.id}/extend`, { days }, { as });
const extendStaff = (order: Json, days: unknown) => h.order.post(`/api/orders/${order.id}/extend`, { days }, { as: h.staff });
/** The order's bookings in the catalog: due date and end (exclusive, turnaround included). */
const bookings = (orderId: string) =>
  exec<{ due: string; end: string }>('catalog', `select to_char(due_date, 'YYYY-MM-DD') as due, to_char(upper(period), 'YYYY-MM-DD') as end from catalog.bookings where order_id = ? and status = 'ACTIVE' order by due_date`, [orderId]);

/** The rental's due date on the staff's ongoing rentals (their kept due date: the earliest line's). */
async function listedDue(order: Json): Promise<string | null> {
  const res = await h.order.get(`/api/ongoing-rentals?tab=ONGOING&search=${encodeURIComponent(order.orderNumber)}`, { as: h.staff });
  expect(res.status).toBe(200);
  expect(res.body.items.map((o: Json) => o.id)).toEqual([order.id]);
  return res.body.items[0].dueDate;
}

/** A rental of 2 walkers (3 days) and 1 bed (30 days), placed and packed (TO_SHIP); delivered unless asked not to. */
async function rental(customer: Caller, opts: { deliver: boolean } = { deliver: true }) {
  const walkers = await h.addStock({ productID: walker.id, productVariantID: walker.variants[0].id, quantity: 2 });
  const beds = await h.addStock({ productID: bed.id, quantity: 1 });
  const placed = await place(h, customer, {
    type: 'RENT',
    typeOfOrder: 'BULK',
    lines: [
      { productID: walker.id, productVariantID: walker.variants[0].id, quantity: 2, noOfRentalDays: 3 },
      { productID: bed.id, quantity: 1, noOfRentalDays: 30 },
    ],
  });
  expect(placed.status).toBe(201);
  const order = await toPreparing(h, placed.body.order);
  const packed = await h.order.post(
    `/api/orders/${order.id}/transitions`,
    { to: 'TO_SHIP', packing: [{ lineID: order.products[0].id, serialCodes: walkers }, { lineID: order.products[1].id, serialCodes: beds }] },
    { as: h.staff },
  );
  expect(packed.status).toBe(200);
  if (!opts.deliver) return { order: packed.body.order as Json, beds };
  const driver = h.as('DRIVER');
  expect((await scan(driver, JSON.stringify({ orderID: order.id, orderNumber: order.orderNumber }))).status).toBe(200);
  expect((await handOver(h, driver, order)).status).toBe(200);
  return { order: (await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order as Json, beds };
}

/** One bed rented for `days` by a new customer, paid, packed and handed over today (DELIVERED). */
async function deliveredBed(days: number): Promise<Json> {
  const beds = await h.addStock({ productID: bed.id, quantity: 1 });
  const placed = await place(h, h.customer(), { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: bed.id, quantity: 1, noOfRentalDays: days }] });
  expect(placed.status).toBe(201);
  const order = await toPreparing(h, placed.body.order);
  const packed = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'TO_SHIP', packing: [{ lineID: order.products[0].id, serialCodes: beds }] }, { as: h.staff });
  expect(packed.status).toBe(200);
  const driver = h.as('DRIVER');
  expect((await scan(driver, JSON.stringify({ orderID: order.id, orderNumber: order.orderNumber }))).status).toBe(200);
  expect((await handOver(h, driver, order)).status).toBe(200);
  return order;
}

describe('extensions of a rental (issue 25)', () => {
  it('a customer gives their delivered rental more days: lines re-priced with their terms, due dates and bookings moved, the extension recorded and told', async () => {
    const customer = h.customer();
    const { order } = await rental(customer);
    expect(order.status).toBe('DELIVERED');
    expect(order.extendable).toBe(true);
    expect(order.totalAmount).toBe('1560.00'); // 2 × 10 × 3 + 50 × 30
    const today = manilaDate();
    expect(order.products.map((l: Json) => l.dueDate)).toEqual([addDays(today, 3), addDays(today, 30)]);
    expect(await bookings(order.id)).toEqual([
      { due: addDays(today, 3), end: addDays(today, 4) },
      { due: addDays(today, 3), end: addDays(today, 4) },
      { due: addDays(today, 30), end: addDays(today, 31) },
    ]);

    const res = await extendMine(order, 2, customer);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(BOOKING_MESSAGES.extended(2, addDays(today, 5)));
    const after = res.body.order;
    expect(after.products.map((l: Json) => [l.noOfRentalDays, l.lineTotal, l.dueDate])).toEqual([
      [5, '100.00', addDays(today, 5)],
      [32, '1600.00', addDays(today, 32)],
    ]);
    expect(after.totalAmount).toBe('1700.00');
    expect(await listedDue(order)).toBe(addDays(today, 5));
    expect(after.partialPayment).toBe(order.partialPayment); // the first day's payment is what it was
    expect(after.extensions).toEqual([{ kind: 'EXTEND', days: 2, amount: '140.00', returnOn: null, by: 'CUSTOMER', createdAt: expect.any(String) }]);
    expect(await bookings(order.id)).toEqual([
      { due: addDays(today, 5), end: addDays(today, 6) },
      { due: addDays(today, 5), end: addDays(today, 6) },
      { due: addDays(today, 32), end: addDays(today, 33) },
    ]);
    const [event] = await exec<{ payload: Json }>('order', `select payload from ordering.outbox where subject = ? and payload->>'aggregateId' = ?`, [EVENTS.order.extended, order.id]);
    expect(event!.payload.data).toMatchObject({ seq: 1, days: 2, amount: '140.00', totalAmount: '1700.00', by: 'CUSTOMER' });

    // Staff give one more day: by STAFF, the second extension.
    const staff = await extendStaff(order, 1);
    expect(staff.status).toBe(200);
    expect(staff.body.order.extensions.map((x: Json) => [x.days, x.amount, x.by])).toEqual([[2, '140.00', 'CUSTOMER'], [1, '70.00', 'STAFF']]);
    expect(staff.body.order.totalAmount).toBe('1770.00');
    expect(await listedDue(order)).toBe(addDays(today, 6));
  });

  it("another customer's rental answers 404; a customer cannot extend before delivery, staff can; bad days are 400 and change nothing", async () => {
    const customer = h.customer();
    const { order } = await rental(customer, { deliver: false });
    expect(order.status).toBe('TO_SHIP');
    expect((await extendMine(order, 1, h.customer())).status).toBe(404);
    const early = await extendMine(order, 1, customer);
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe(BOOKING_MESSAGES.extendNotOngoing);
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order.extendable).toBe(false);
    expect((await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order.extendable).toBe(true);
    for (const days of [0, -1, 1.5, 'two', null, MAX_RENTAL_DAYS + 1]) expect((await extendStaff(order, days)).status).toBe(400);
    const tooLong = await extendStaff(order, MAX_RENTAL_DAYS - 30 + 1);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.detail).toBe(BOOKING_MESSAGES.extendTooLong);
    expect((await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order.totalAmount).toBe('1560.00');
    // Staff lengthen a rental before it goes out.
    const ok = await extendStaff(order, 3);
    expect(ok.status).toBe(200);
    expect(ok.body.order.products.map((l: Json) => l.noOfRentalDays)).toEqual([6, 33]);
    // A driver may not.
    expect((await h.order.post(`/api/orders/${order.id}/extend`, { days: 1 }, { as: h.as('DRIVER') })).status).toBe(403);
  });

  it('refused when a unit is booked after the rental: it says until when it could go, and nothing changes; what fits is accepted', async () => {
    const customer = h.customer();
    const { order } = await rental(customer);
    const today = manilaDate();
    const bedDue = addDays(today, 30);
    // Another customer books every bed free from the bed's due + 1 turnaround + 2 days on.
    const next = await place(h, h.customer(), { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: bed.id, quantity: 1, noOfRentalDays: 2, startDate: addDays(bedDue, 3) }] });
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    // That booking took this order's bed (the beds of earlier tests are booked those days).
    const [taken] = await exec<{ n: number }>(
      'catalog',
      `select count(*)::int as n from catalog.bookings a join catalog.bookings b on a.stock_item_id = b.stock_item_id
        where a.order_id = ? and b.order_id = ? and a.status = 'ACTIVE' and b.status = 'ACTIVE'`,
      [order.id, next.body.order.id],
    );
    expect(taken!.n).toBe(1);
    const refused = await extendMine(order, 5, customer);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(BOOKING_MESSAGES.extendRefused(2, addDays(today, 5)));
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order.totalAmount).toBe('1560.00');
    // Two days fit.
    expect((await extendMine(order, 2, customer)).status).toBe(200);
    const none = await extendMine(order, 1, customer);
    expect(none.status).toBe(409);
    expect(none.body.detail).toBe(BOOKING_MESSAGES.extendRefused(0, addDays(today, 5)));
  });
});

describe('ending a rental early (issue 25)', () => {
  const endEarly = (order: Json, returnOn: unknown, as: Caller = h.staff) => h.order.post(`/api/orders/${order.id}/end-early`, { returnOn }, { as });

  it('staff end a delivered rental early: lines due later are due that day and re-priced, the rest of their bookings freed, the change recorded and told', async () => {
    const customer = h.customer();
    const { order } = await rental(customer);
    const today = manilaDate();
    const staffView = (await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order;
    // Delivered today: from tomorrow (the first day is paid) to the day before the bed's due date.
    expect(staffView.earlyEnd).toEqual({ from: addDays(today, 1), to: addDays(today, 29) });
    expect(order.earlyEnd).toBeNull(); // the customer's view

    const res = await endEarly(order, addDays(today, 5));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(BOOKING_MESSAGES.endedEarly(addDays(today, 5)));
    const after = res.body.order;
    // The walkers (due on day 3) stay as they are; the bed has 5 days: 50 × 5.
    expect(after.products.map((l: Json) => [l.noOfRentalDays, l.lineTotal, l.dueDate])).toEqual([
      [3, '60.00', addDays(today, 3)],
      [5, '250.00', addDays(today, 5)],
    ]);
    expect(after.totalAmount).toBe('310.00');
    expect(after.extensions).toEqual([{ kind: 'END_EARLY', days: -25, amount: '-1250.00', returnOn: addDays(today, 5), by: 'STAFF', createdAt: expect.any(String) }]);
    expect(after.earlyEnd).toEqual({ from: addDays(today, 1), to: addDays(today, 4) });
    expect(await bookings(order.id)).toEqual([
      { due: addDays(today, 3), end: addDays(today, 4) },
      { due: addDays(today, 3), end: addDays(today, 4) },
      { due: addDays(today, 5), end: addDays(today, 6) },
    ]);
    const [event] = await exec<{ payload: Json }>('order', `select payload from ordering.outbox where subject = ? and payload->>'aggregateId' = ?`, [EVENTS.order.endedEarly, order.id]);
    expect(event!.payload.data).toMatchObject({ seq: 1, days: -25, amount: '-1250.00', totalAmount: '310.00', returnOn: addDays(today, 5), by: 'STAFF' });

    // The bed's days after its return day (and turnaround, and a day for the extension below) can be booked by another customer.
    const bedUnit = await exec<{ stock_item_id: string }>('catalog', `select stock_item_id from catalog.bookings where order_id = ? and due_date = ?`, [order.id, addDays(today, 5)]);
    const other = await place(h, h.customer(), { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: bed.id, quantity: 1, noOfRentalDays: 2, startDate: addDays(today, 7) }] });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const [took] = await exec<{ n: number }>('catalog', `select count(*)::int as n from catalog.bookings where order_id = ? and stock_item_id = ?`, [other.body.order.id, bedUnit[0]!.stock_item_id]);
    expect(took!.n, 'the freed bed is the one booked').toBe(1);

    // An extension afterwards takes the next number and moves every line from there.
    const more = await extendStaff(order, 1);
    expect(more.status).toBe(200);
    expect(more.body.order.products.map((l: Json) => l.dueDate)).toEqual([addDays(today, 4), addDays(today, 6)]);
    expect(more.body.order.extensions.map((x: Json) => [x.kind, x.days])).toEqual([['END_EARLY', -25], ['EXTEND', 1]]);
    expect(await listedDue(order)).toBe(addDays(today, 4));
  });

  it("the rental's due date on the staff's lists follows its delivery and an early end (kept on the order, issue 30)", async () => {
    const order = await deliveredBed(30);
    const today = manilaDate();
    expect(await listedDue(order)).toBe(addDays(today, 30));
    const ended = await endEarly(order, addDays(today, 5));
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(await listedDue(order)).toBe(addDays(today, 5));
    // Due in five days: not on the Due Date tab until then.
    const dueTab = await h.order.get(`/api/ongoing-rentals?tab=DUE_DATE&search=${encodeURIComponent(order.orderNumber)}`, { as: h.staff });
    expect(dueTab.body.counts).toMatchObject({ ONGOING: 1, DUE_DATE: 0 });
  });

  it('only staff, only a delivered rental, only a day of its window; a refusal changes nothing', async () => {
    const customer = h.customer();
    const { order: notOut } = await rental(customer, { deliver: false });
    const today = manilaDate();
    const early = await endEarly(notOut, addDays(today, 2));
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe(BOOKING_MESSAGES.endEarlyNotOngoing);
    expect((await h.order.get(`/api/orders/${notOut.id}`, { as: h.staff })).body.order.earlyEnd).toBeNull();

    const { order } = await rental(customer);
    expect((await endEarly(order, addDays(today, 2), customer)).status).toBe(403);
    expect((await endEarly(order, addDays(today, 2), h.as('DRIVER'))).status).toBe(403);
    expect((await h.order.post(`/api/orders/${randomUUID()}/end-early`, { returnOn: addDays(today, 2) }, { as: h.staff })).status).toBe(404);
    for (const returnOn of ['tomorrow', '2026-02-30', 20261201, null]) expect((await endEarly(order, returnOn)).status).toBe(400);
    // Today is the delivery day (the first day is paid), and the bed's due date ends nothing early.
    for (const returnOn of [today, addDays(today, -1), addDays(today, 30), addDays(today, 40)]) {
      const out = await endEarly(order, returnOn);
      expect(out.status).toBe(400);
      expect(out.body.detail).toBe(BOOKING_MESSAGES.endEarlyRange(addDays(today, 1), addDays(today, 29)));
      expect(out.body.errors).toEqual([{ field: 'returnOn', message: BOOKING_MESSAGES.endEarlyRange(addDays(today, 1), addDays(today, 29)) }]);
    }
    const staffView = (await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order;
    expect(staffView.totalAmount).toBe('1560.00');
    expect(staffView.extensions).toEqual([]);
    expect((await bookings(order.id)).map((b) => b.due)).toEqual([addDays(today, 3), addDays(today, 3), addDays(today, 30)]);
  });

  it('ended on today, a rental delivered days ago can go For Return at once (a product\'s period has ended)', async () => {
    const order = await deliveredBed(10);
    // Delivered three days ago (its bookings with it), once the catalog has moved them to the delivered day.
    const [delivered] = await exec<{ id: string }>(
      'order',
      `select payload->>'id' as id from ordering.outbox where subject = ? and payload->>'aggregateId' = ? and payload->'data'->>'to' = 'DELIVERED'`,
      [EVENTS.order.statusChanged, order.id],
    );
    await eventually(async () => (await exec('catalog', 'select 1 from catalog.inbox where event_id = ?', [delivered!.id])).length > 0, 10_000);
    await exec('order', `update ordering.orders set delivered_at = delivered_at - interval '3 days' where id = ?`, [order.id]);
    await exec('catalog', `update catalog.bookings set period = daterange(lower(period) - 3, upper(period) - 3), due_date = due_date - 3 where order_id = ?`, [order.id]);
    const today = manilaDate();
    const before = (await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order;
    expect(before.earlyEnd).toEqual({ from: today, to: addDays(today, 6) });
    expect(before.allowedTransitions).not.toContain('FOR_RETURN');

    const ended = await endEarly(order, today);
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.order.products.map((l: Json) => [l.noOfRentalDays, l.lineTotal, l.dueDate])).toEqual([[3, '150.00', today]]);
    expect(ended.body.order.dueNotice).toBe('DUE_TODAY');
    expect(ended.body.order.earlyEnd).toBeNull();
    expect(ended.body.order.allowedTransitions).toContain('FOR_RETURN');
    expect(await bookings(order.id)).toEqual([{ due: today, end: addDays(today, 1) }]);
    const back = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'FOR_RETURN' }, { as: h.staff });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect((await endEarly(order, today)).status).toBe(409);
  });

  it('issue 29: a rental billed by cycles is not ended early within the days its paid cycles cover (a paid cycle is never partly refunded)', async () => {
    const order = await deliveredBed(60);
    const today = manilaDate();
    expect((await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order.earlyEnd).toEqual({ from: addDays(today, 1), to: addDays(today, 59) });
    // Accounting takes cycle 1 (days 1–30).
    const cycle = paymentConfirmed(order, 'first', { type: 'CYCLE', status: 'INITIAL_PAYMENT', cycle: 1, amount: '1450.00', recordId: randomUUID() });
    await h.publish(cycle);
    await eventually(async () => (await exec('order', 'select 1 from ordering.inbox where event_id = ?', [cycle.id])).length > 0, 10_000);
    const staffView = (await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order;
    expect(staffView.earlyEnd).toEqual({ from: addDays(today, 30), to: addDays(today, 59) });
    const inside = await endEarly(order, addDays(today, 10));
    expect(inside.status).toBe(400);
    expect(inside.body.detail).toBe(BOOKING_MESSAGES.endEarlyRange(addDays(today, 30), addDays(today, 59)));
    expect((await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order.totalAmount).toBe('3000.00');
    const after = await endEarly(order, addDays(today, 40));
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.order.totalAmount).toBe('2000.00');
  });
});
