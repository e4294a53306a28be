import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, EVENTS, HANDOVER_MESSAGES, lineDueDate, manilaDate, manilaInstant, RENTAL_MESSAGES } from '@dme/contracts';
import { createLogger } from '@dme/platform';
import { eventually, type Caller, type Json } from '@dme/testing';
import { handOver, ledgerAndRecount, paymentConfirmed, place, startOrdering, toPreparing, type OrderHarness } from '../../test/harness';
import { GUARD_MESSAGES } from '../../process/guards';
import { LINE_DUE } from './due';
import { startReminderSchedule, writeDueReminders } from './reminders';

let h: OrderHarness;
let walker: Json;
let bed: Json;
beforeAll(async () => {
  h = await startOrdering();
  walker = await h.product({
    brand: 'Drive',
    name: `Walker ${randomUUID().slice(0, 6)}`,
    type: 'FOR_RENT',
    price: '10.00',
    variants: [{ name: 'Folding', price: '10.00', damageCharges: '120.35' }],
  });
  bed = await h.product({ brand: 'Invacare', name: `Bed ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '50.00', damageCharges: '900.10' });
});
afterAll(() => h?.close());

const move = (order: Json, to: string, as: Caller) => h.order.post(`/api/orders/${order.id}/transitions`, { to }, { as });
const staffRead = async (order: Json) => (await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order;
const scan = (as: Caller, code: string, purpose: 'DELIVERY' | 'PICKUP' = 'DELIVERY') => h.order.post('/api/driver/scan', { purpose, code }, { as });
const qrPayload = (order: Json) => JSON.stringify({ orderID: order.id, orderNumber: order.orderNumber });
const exec = <T>(q: string, params: unknown[]) => h.orderOrm.em.fork().execute<T[]>(q, params);
/** An answer as a client receives it, byte for byte: status, content type and the body's text. */
const whole = (r: { status: number; headers: Headers; text: string }) => ({ status: r.status, type: r.headers.get('content-type'), text: r.text });
/** What a scan of a code that names no order answers. */
const unknownScan = (as: Caller, purpose: 'DELIVERY' | 'PICKUP' = 'DELIVERY') => scan(as, `ORD-19990101-${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`, purpose);
/** A driver's read of an order, its path (the problem's `instance`) taken out: what remains must not depend on the id. */
const driverRead = async (as: Caller, id: string) => {
  const r = await h.order.get(`/api/driver/orders/${id}`, { as });
  const body = r.status === 404 ? { ...r.body, instance: r.body.instance === `/api/driver/orders/${id}` ? 'the path' : r.body.instance } : r.body;
  return { status: r.status, type: r.headers.get('content-type'), body };
};

/** A rental of 2 walkers (3 days) and a bed (30 days), placed, paid and packed: TO_SHIP. */
async function rentalToShip(customer: Caller = h.customer()): Promise<{ order: Json; walkers: string[]; beds: string[]; customer: Caller }> {
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
    {
      to: 'TO_SHIP',
      packing: [
        { lineID: order.products[0].id, serialCodes: walkers },
        { lineID: order.products[1].id, serialCodes: beds },
      ],
    },
    { as: h.staff },
  );
  expect(packed.status).toBe(200);
  return { order: packed.body.order, walkers, beds, customer };
}

/** Delivered by a driver (a scan, then the hand-over at the door), then moved back in time so that the walkers are due (3 days ago). */
async function delivered(customer?: Caller) {
  const r = await rentalToShip(customer);
  const driver = h.as('DRIVER');
  expect((await scan(driver, qrPayload(r.order))).status).toBe(200);
  expect((await handOver(h, driver, r.order)).status).toBe(200);
  return { ...r, driver };
}

describe('drivers: delivery and pick-up by QR scan', () => {
  it('scan the QR of a TO_SHIP order: out for delivery with this driver; scan again (typed number): delivered, due dates from the delivered day', async () => {
    const { order } = await rentalToShip();
    const driver = h.as('DRIVER');
    const out = await scan(driver, qrPayload(order));
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ order: expect.objectContaining({ id: order.id, status: 'OUT_FOR_DELIVERY' }), message: RENTAL_MESSAGES.takenOut(order.orderNumber) });
    // The driver's For Delivery list holds it; another driver's does not.
    const mine = await h.order.get('/api/driver/orders?purpose=DELIVERY', { as: driver });
    expect(mine.body.items.map((o: Json) => o.id)).toEqual([order.id]);
    expect(mine.body.items[0]).toMatchObject({ orderNumber: order.orderNumber, customerID: order.customerID, status: 'OUT_FOR_DELIVERY' });
    const other = h.as('DRIVER');
    expect((await h.order.get('/api/driver/orders?purpose=DELIVERY', { as: other })).body.items).toEqual([]);
    // Another driver scanning it learns nothing: the answer is the one for a code that names no order.
    const refused = await scan(other, order.orderNumber);
    expect(whole(refused)).toEqual(whole(await unknownScan(other)));
    expect(refused).toMatchObject({ status: 404, body: { detail: RENTAL_MESSAGES.unknownOrder } });

    // At the door the scan (typed number, any case) moves nothing: it opens the hand-over (issue 28).
    const door = await scan(driver, order.orderNumber.toLowerCase());
    expect(door.status).toBe(200);
    expect(door.body).toEqual({ order: expect.objectContaining({ status: 'OUT_FOR_DELIVERY' }), message: HANDOVER_MESSAGES.handoverNeeded(order.orderNumber), handover: 'DELIVERY' });
    const done = await handOver(h, driver, order);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ order: { status: 'DELIVERED' }, message: HANDOVER_MESSAGES.delivered(order.orderNumber, 'Maria Santos') });
    const read = await staffRead(order);
    expect(read.deliveredAt).not.toBeNull();
    expect(read.driverID).toBe(driver.userId);
    const day = manilaDate(new Date(read.deliveredAt));
    expect(read.products.map((l: Json) => l.dueDate)).toEqual([addDays(day, 3), addDays(day, 30)]);
    // Delivered: no longer on the driver's list, and a delivery scan is refused with the reason.
    expect((await h.order.get('/api/driver/orders?purpose=DELIVERY', { as: driver })).body.items).toEqual([]);
    const again = await scan(driver, order.orderNumber);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(RENTAL_MESSAGES.notForDelivery(order.orderNumber, 'DELIVERED'));
    // The status events name the driver (the live stream sends them to that driver only).
    const events = await exec<{ payload: Json }>(`select payload from ordering.outbox where subject = ? and payload -> 'data' ->> 'orderId' = ? order by created_at`, [
      EVENTS.order.statusChanged,
      order.id,
    ]);
    expect(events.slice(-2).map((e) => [e.payload.data.to, e.payload.data.driverId])).toEqual([
      ['OUT_FOR_DELIVERY', driver.userId],
      ['DELIVERED', driver.userId],
    ]);
  });

  it("a driver reads only orders assigned to them: one waiting for a driver, another driver's and an unknown id all answer the same 404", async () => {
    const { order } = await rentalToShip();
    const driver = h.as('DRIVER');
    const other = h.as('DRIVER');
    const unknown = await driverRead(other, randomUUID());
    expect(unknown).toMatchObject({ status: 404, type: expect.stringContaining('application/problem+json') });
    // Waiting for a driver (TO_SHIP): not theirs yet, so not readable — the customer's name,
    // contact details and address stay hidden until a driver takes it (the scan).
    const waiting = await driverRead(other, order.id);
    expect(waiting).toEqual(unknown);
    expect(JSON.stringify(waiting)).not.toContain(order.deliveryAddress);
    // Nor through the transitions route with any step but the one that takes it.
    const stepUnknown = await h.order.post(`/api/orders/${randomUUID()}/transitions`, { to: 'DELIVERED' }, { as: other });
    const stepWaiting = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'DELIVERED' }, { as: other });
    expect(stepWaiting.status).toBe(404);
    expect({ ...stepWaiting.body, instance: null }).toEqual({ ...stepUnknown.body, instance: null });
    expect((await scan(driver, qrPayload(order))).status).toBe(200);
    const mine = await h.order.get(`/api/driver/orders/${order.id}`, { as: driver });
    expect(mine.status).toBe(200);
    expect(mine.body.order).toMatchObject({ id: order.id, status: 'OUT_FOR_DELIVERY', customerID: order.customerID, deliveryAddress: order.deliveryAddress });
    expect(await driverRead(other, order.id)).toEqual(unknown);
    // The superadmin sees every driver's orders.
    const admin = h.as('SUPERADMIN');
    expect((await h.order.get(`/api/driver/orders/${order.id}`, { as: admin })).status).toBe(200);
    expect((await h.order.get('/api/driver/orders?purpose=DELIVERY', { as: admin })).body.items.map((o: Json) => o.id)).toContain(order.id);
    // Customers, warehouse and accounting have no driver routes.
    for (const role of ['CUSTOMER', 'WAREHOUSE_STAFF', 'ACCOUNTING_ADMIN'] as const) {
      expect((await scan(h.as(role), order.orderNumber)).status, role).toBe(403);
      expect((await h.order.get('/api/driver/orders?purpose=DELIVERY', { as: h.as(role) })).status, role).toBe(403);
    }
  });

  it('two drivers scanning the same TO_SHIP order at once: exactly one gets it', async () => {
    for (let round = 0; round < 3; round++) {
      const { order } = await rentalToShip();
      const drivers = [h.as('DRIVER'), h.as('DRIVER'), h.as('DRIVER')];
      const results = await Promise.all(drivers.map((d) => scan(d, qrPayload(order))));
      const won = results.filter((r) => r.status === 200);
      expect(won).toHaveLength(1);
      // The others come second: the order is then another driver's, which answers like no order at all.
      const unknown = whole(await unknownScan(drivers[0]!));
      expect(results.filter((r) => r.status !== 200).map(whole)).toEqual([unknown, unknown]);
      const winner = drivers[results.indexOf(won[0]!)]!;
      const read = await staffRead(order);
      expect(read).toMatchObject({ status: 'OUT_FOR_DELIVERY', driverID: winner.userId });
      expect(read.orderTracker.filter((t: Json) => t.status === 'OUT_FOR_DELIVERY')).toHaveLength(1);
    }
  });

  it('a scan is not an oracle: a PENDING order, another driver\'s, one not waiting this way and a code naming no order answer byte for byte alike', async () => {
    await h.addStock({ productID: bed.id, quantity: 1 });
    const placed = await place(h, h.customer(), { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: bed.id, quantity: 1, noOfRentalDays: 2 }] });
    const pending = placed.body.order;
    const driver = h.as('DRIVER');
    const unknown = whole(await unknownScan(driver));
    expect(unknown).toMatchObject({ status: 404, type: expect.stringContaining('application/problem+json') });
    expect(JSON.parse(unknown.text).detail).toBe(RENTAL_MESSAGES.unknownOrder);
    // A PENDING order, by number and by QR, for delivery and for pick-up.
    for (const purpose of ['DELIVERY', 'PICKUP'] as const) {
      expect(whole(await scan(driver, pending.orderNumber, purpose)), purpose).toEqual(unknown);
      expect(whole(await scan(driver, qrPayload(pending), purpose)), purpose).toEqual(unknown);
    }
    // Another driver's order out for delivery, by number and by QR.
    const { order: out } = await rentalToShip();
    const holder = h.as('DRIVER');
    expect((await scan(holder, out.orderNumber)).status).toBe(200);
    expect(whole(await scan(driver, out.orderNumber))).toEqual(unknown);
    expect(whole(await scan(driver, qrPayload(out)))).toEqual(unknown);
    // A TO_SHIP order scanned for pick-up: it is not taken that way.
    const { order: toShip } = await rentalToShip();
    expect(whole(await scan(driver, toShip.orderNumber, 'PICKUP'))).toEqual(unknown);
    // Codes naming no order (also a QR whose id and number do not match).
    for (const code of ['ORD-19990101-999999', '{"orderID":"not json', JSON.stringify({ orderID: randomUUID(), orderNumber: pending.orderNumber })]) {
      expect(whole(await scan(driver, code)), code).toEqual(unknown);
    }
    // The holder scanning their own order the wrong way is told why; the superadmin is told about any.
    const own = await scan(holder, out.orderNumber, 'PICKUP');
    expect(own).toMatchObject({ status: 409, body: { detail: RENTAL_MESSAGES.notForPickup(out.orderNumber, 'OUT_FOR_DELIVERY') } });
    const admin = h.as('SUPERADMIN');
    expect((await scan(admin, out.orderNumber)).body.detail).toBe(RENTAL_MESSAGES.otherDriver(out.orderNumber));
    expect((await scan(admin, pending.orderNumber)).body.detail).toBe(RENTAL_MESSAGES.notForDelivery(pending.orderNumber, 'PENDING'));
    // Nothing moved.
    expect((await staffRead(toShip)).status).toBe('TO_SHIP');
    expect((await staffRead(out)).driverID).toBe(holder.userId);
    expect((await scan(driver, '   ')).status).toBe(400);
    const [row] = await exec<{ status: string }>('select status from ordering.orders where id = ?', [pending.id]);
    expect(row!.status).toBe('PENDING');
  });

  it("pick-up: a FOR_RETURN rental scanned at the door is this driver's; the hand-over makes it their FOR_PICK_UP order", async () => {
    const { order, driver: deliverer } = await delivered();
    await exec(`update ordering.orders set delivered_at = delivered_at - interval '3 days' where id = ?`, [order.id]);
    expect((await move(order, 'FOR_RETURN', h.staff)).status).toBe(200);
    const picker = h.as('DRIVER');
    // Waiting for a pick-up driver: no driver reads it (the one who delivered it neither), and a
    // delivery scan does not reach it.
    expect(await driverRead(picker, order.id)).toEqual(await driverRead(picker, randomUUID()));
    expect(await driverRead(deliverer, order.id)).toEqual(await driverRead(deliverer, randomUUID()));
    expect(whole(await scan(picker, order.orderNumber, 'DELIVERY'))).toEqual(whole(await unknownScan(picker)));
    const res = await scan(picker, qrPayload(order), 'PICKUP');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ order: expect.objectContaining({ status: 'FOR_RETURN' }), message: HANDOVER_MESSAGES.handoverNeeded(order.orderNumber), handover: 'PICKUP' });
    // Scanned at the door: the picker's now (they read it; another driver's scan is told it is taken).
    expect((await h.order.get(`/api/driver/orders/${order.id}`, { as: picker })).status).toBe(200);
    expect((await scan(h.as('DRIVER'), order.orderNumber, 'PICKUP')).body.detail).toBe(RENTAL_MESSAGES.otherDriver(order.orderNumber));
    const taken = await handOver(h, picker, order, 'PICKUP', { recipientName: 'Jose Santos', relation: 'FAMILY' });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ order: { status: 'FOR_PICK_UP' }, message: HANDOVER_MESSAGES.pickedUp(order.orderNumber, 'Jose Santos') });
    expect((await h.order.get('/api/driver/orders?purpose=PICKUP', { as: picker })).body.items.map((o: Json) => o.id)).toEqual([order.id]);
  });
});

describe('due dates on the Manila calendar', () => {
  it("the list's SQL form of a line's due date agrees with the terms rule lineDueDate at the Manila-midnight edges", async () => {
    const cases: Array<[string, number]> = [
      ['2026-11-25T15:30:00.000Z', 1], // 23:30 Manila
      ['2026-11-25T16:15:00.000Z', 1], // 00:15 Manila the next day
      ['2026-11-29T02:00:00.000Z', 3], // across a month end
      ['2026-12-30T20:00:00.000Z', 5], // across the new year (04:00 Manila on the 31st)
      ['2028-02-27T02:00:00.000Z', 2], // to a leap day
    ];
    for (const [at, days] of cases) {
      const [row] = await exec<{ due: string }>(`select ${LINE_DUE}::text as due from (select ?::timestamptz as delivered_at) o, (select ?::int as no_of_rental_days) l`, [at, days]);
      expect(row!.due, `${at} + ${days}`).toBe(lineDueDate(new Date(at), days));
    }
  });

  it('delivered at 23:30 Manila time with 1 rental day: due the next Manila day; FOR_RETURN refused until that day', async () => {
    const r = await rentalToShip();
    const order = r.order;
    const bedLine = await exec<{ id: string }>('select id from ordering.order_lines where order_id = ? order by position', [order.id]);
    await exec('update ordering.order_lines set no_of_rental_days = 1 where id = any(?::uuid[])', [`{${bedLine.map((l) => l.id).join(',')}}`]);
    const driver = h.as('DRIVER');
    expect((await scan(driver, order.orderNumber)).status).toBe(200);
    expect((await handOver(h, driver, order)).status).toBe(200);
    const today = manilaDate();
    // Delivered yesterday (Manila) at 23:30, i.e. 15:30 UTC: due today, one day later by the Manila calendar (not 24 h later).
    const yesterday = addDays(today, -1);
    await exec(`update ordering.orders set delivered_at = ?::timestamptz where id = ?`, [`${yesterday}T23:30:00+08:00`, order.id]);
    const read = await staffRead(order);
    expect(read.products.map((l: Json) => l.dueDate)).toEqual([today, today]);
    expect(read.allowedTransitions).toEqual(['FOR_RETURN']);
    // Delivered today at 23:30 Manila (possibly still in the future): due tomorrow, the guard refuses today.
    await exec(`update ordering.orders set delivered_at = ?::timestamptz where id = ?`, [`${today}T23:30:00+08:00`, order.id]);
    const early = await staffRead(order);
    expect(early.products.map((l: Json) => l.dueDate)).toEqual([addDays(today, 1), addDays(today, 1)]);
    const refused = await move(order, 'FOR_RETURN', h.staff);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(GUARD_MESSAGES.notPastDue);
  });
});

describe('returns inspection (FOR_PICK_UP)', () => {
  it('each serial marked once; the catalog follows (OK → RETURNED, to be cleaned, and IN; DAMAGED; LOST); extra charge and balance exact; ledger consistent', async () => {
    const { order, walkers, beds } = await delivered();
    const ret = (code: string, status: string, as: Caller = h.staff) => h.order.post(`/api/orders/${order.id}/serials/${encodeURIComponent(code)}/return`, { status }, { as });
    // Not picked up yet: refused.
    const early = await ret(walkers[0]!, 'OK');
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe(RENTAL_MESSAGES.notPickingUp);
    await exec(`update ordering.orders set delivered_at = delivered_at - interval '3 days' where id = ?`, [order.id]);
    expect((await move(order, 'FOR_RETURN', h.staff)).status).toBe(200);
    expect((await handOver(h, h.as('DRIVER'), order, 'PICKUP')).status).toBe(200);
    const before = await ledgerAndRecount(h, [walker.id, bed.id]);

    // Only warehouse staff mark returns.
    for (const role of ['DRIVER', 'CUSTOMER', 'ACCOUNTING_ADMIN'] as const) expect((await ret(walkers[0]!, 'OK', h.as(role))).status, role).toBe(403);
    const ok = await ret(walkers[0]!.toLowerCase(), 'OK');
    expect(ok.status).toBe(200);
    const okLine = ok.body.order.products[0].serialCodes.find((s: Json) => s.serialCode === walkers[0]);
    expect(okLine).toMatchObject({ status: 'OK', returnedAt: expect.any(String) });
    const twice = await ret(walkers[0]!, 'DAMAGED');
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe(RENTAL_MESSAGES.alreadyReturned);
    const unknown = await ret('ZZZ-0000000', 'OK');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe(RENTAL_MESSAGES.unknownSerial);
    expect((await ret(walkers[1]!, 'BROKEN')).status).toBe(400);
    // FOR_FULL_PAYMENT needs every serial marked.
    expect((await staffRead(order)).allowedTransitions).toEqual([]);
    expect((await ret(walkers[1]!, 'DAMAGED')).status).toBe(200);
    expect((await ret(beds[0]!, 'LOST')).status).toBe(200);
    expect((await staffRead(order)).allowedTransitions).toEqual(['FOR_FULL_PAYMENT']);

    const items = await h.catalogOrm.em
      .fork()
      .execute<Array<{ serial_code: string; status: string; inventory_type: string }>>(
        'select serial_code, status, inventory_type from catalog.stock_items where serial_code = any(?::text[]) order by serial_code',
        [`{${[...walkers, ...beds].join(',')}}`],
      );
    const byCode = Object.fromEntries(items.map((i) => [i.serial_code, [i.status, i.inventory_type]]));
    expect(byCode).toEqual({ [walkers[0]!]: ['RETURNED', 'IN'], [walkers[1]!]: ['DAMAGED', 'IN'], [beds[0]!]: ['LOST', 'OUT'] });
    // The ledger moved with the items: one walker back to be cleaned (issue 26), one damaged, the bed lost; it equals a recount.
    const after = await ledgerAndRecount(h, [walker.id, bed.id]);
    expect(after.ledger).toEqual(after.recount);
    const walkerLeaf = walker.variants[0].id;
    expect(after.ledger[walkerLeaf]!.returned - before.ledger[walkerLeaf]!.returned).toBe(1);
    expect(after.ledger[walkerLeaf]!.available).toBe(before.ledger[walkerLeaf]!.available);
    expect(after.ledger[walkerLeaf]!.rented - before.ledger[walkerLeaf]!.rented).toBe(-2);
    expect(after.ledger[walkerLeaf]!.damaged - before.ledger[walkerLeaf]!.damaged).toBe(1);
    expect(after.ledger[bed.id]!.lost - (before.ledger[bed.id]?.lost ?? 0)).toBe(1);

    // Extra = 120.35 (damaged walker) + 900.10 (lost bed) = 1020.45; total 2 × 10 × 3 + 50 × 30 = 1560.00; partial 70.00.
    // Before asking, the order shows what asking would charge (the warehouse's prompt): the server's figures.
    expect((await staffRead(order)).fullPaymentPreview).toEqual({
      extraCharge: '1020.45',
      chargedSerials: [
        { serialCode: walkers[1], status: 'DAMAGED' },
        { serialCode: beds[0], status: 'LOST' },
      ],
      balance: '2510.45',
      dueDate: addDays(manilaDate(), 1),
      // No rental terms on these products: no late fee, no deposit (issue 29).
      lateFees: '0.00',
      depositApplied: '0.00',
      depositRefund: '0.00',
    });
    const full = await move(order, 'FOR_FULL_PAYMENT', h.staff);
    expect(full.status).toBe(200);
    expect(full.body.order.payment).toMatchObject({ status: 'FOR_FULL_PAYMENT', extraCharge: '1020.45', overallTotal: '2580.45', balance: '2510.45', totalPartialPayment: '70.00' });
    expect(full.body.order.fullPaymentPreview).toBeNull();
  });
});

describe("returns' recovery is forward (issue 23)", () => {
  it("the order's write failing after the catalog moved the unit leaves the serial unmarked; marking again records it with the catalog's same answer", async () => {
    const { order, walkers } = await delivered();
    await exec(`update ordering.orders set delivered_at = delivered_at - interval '3 days' where id = ?`, [order.id]);
    expect((await move(order, 'FOR_RETURN', h.staff)).status).toBe(200);
    expect((await handOver(h, h.as('DRIVER'), order, 'PICKUP')).status).toBe(200);
    const ret = () => h.order.post(`/api/orders/${order.id}/serials/${encodeURIComponent(walkers[0]!)}/return`, { status: 'DAMAGED' }, { as: h.staff });
    const unit = async () =>
      (await h.catalogOrm.em.fork().execute<Array<{ status: string; inventory_type: string }>>('select status, inventory_type from catalog.stock_items where serial_code = ?', [walkers[0]]))[0];
    await exec(`create or replace function ordering.test_fail_return() returns trigger language plpgsql as $$ begin raise exception 'test: the order write fails'; end $$`, []);
    await exec(`create trigger test_fail_return before update on ordering.order_line_serials for each row when (new.order_id = '${order.id}') execute function ordering.test_fail_return()`, []);
    try {
      expect((await ret()).status).toBeGreaterThanOrEqual(500);
    } finally {
      await exec('drop trigger test_fail_return on ordering.order_line_serials', []);
    }
    // The catalog moved the unit; the order has no mark yet.
    expect(await unit()).toEqual({ status: 'DAMAGED', inventory_type: 'IN' });
    const unmarked = (await staffRead(order)).products.flatMap((l: Json) => l.serialCodes).find((s: Json) => s.serialCode === walkers[0]);
    expect(unmarked.status).toBeNull();
    // Marking again: the catalog answers the same (nothing moves twice), the order records the mark.
    const again = await ret();
    expect(again.status).toBe(200);
    expect(again.body.order.products.flatMap((l: Json) => l.serialCodes).find((s: Json) => s.serialCode === walkers[0])).toMatchObject({ status: 'DAMAGED' });
    expect(await unit()).toEqual({ status: 'DAMAGED', inventory_type: 'IN' });
  });
});

describe('fix and replace requests', () => {
  it('a customer files one on their delivered rental; staff mark it On Progress then Done; order detail lists it', async () => {
    const { order, customer } = await delivered();
    const path = `/api/my/orders/${order.id}/requests`;
    const none = await h.order.post(path, { type: 'FIX', lineIDs: [], note: '' }, { as: customer });
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([{ field: 'lineIDs', message: RENTAL_MESSAGES.selectProduct }]);
    expect((await h.order.post(path, { type: 'FIX', lineIDs: [randomUUID()] }, { as: customer })).status).toBe(400);
    // Another customer's order answers like an unknown one.
    expect((await h.order.post(path, { type: 'FIX', lineIDs: [order.products[0].id] }, { as: h.customer() })).status).toBe(404);
    const created = await h.order.post(path, { type: 'REPLACE', lineIDs: [order.products[1].id, order.products[1].id], note: 'The bed rail is loose' }, { as: customer });
    expect(created.status).toBe(201);
    expect(created.body.request).toMatchObject({
      orderID: order.id,
      type: 'REPLACE',
      status: 'PENDING',
      userNote: 'The bed rail is loose',
      products: [{ lineID: order.products[1].id, productName: bed.name, variantName: null, subVariantName: null }],
    });
    const id = created.body.request.id;
    const mine = await h.order.get(`/api/my/orders/${order.id}`, { as: customer });
    expect(mine.body.order.requests.map((r: Json) => [r.id, r.status])).toEqual([[id, 'PENDING']]);

    const step = (status: string, as: Caller = h.staff) => h.order.patch(`/api/orders/${order.id}/requests/${id}`, { status }, { as });
    expect((await step('ON_PROGRESS', customer)).status).toBe(403);
    expect((await step('ON_PROGRESS', h.as('DRIVER'))).status).toBe(403);
    const skip = await step('DONE');
    expect(skip.status).toBe(409);
    expect(skip.body.detail).toBe(RENTAL_MESSAGES.requestStep('PENDING', 'DONE'));
    expect((await step('ON_PROGRESS')).body.request.status).toBe('ON_PROGRESS');
    expect((await step('DONE')).body.request.status).toBe('DONE');
    expect((await step('DONE')).status).toBe(409);
    expect((await h.order.patch(`/api/orders/${order.id}/requests/${randomUUID()}`, { status: 'DONE' }, { as: h.staff })).status).toBe(404);
    expect((await staffRead(order)).requests.map((r: Json) => r.status)).toEqual(['DONE']);
    const events = await exec<{ payload: Json }>(`select payload from ordering.outbox where subject = ? and payload -> 'data' ->> 'requestId' = ? order by created_at`, [
      EVENTS.request.changed,
      id,
    ]);
    expect(events.map((e) => [e.payload.data.status, e.payload.data.customerId])).toEqual([
      ['PENDING', customer.userId],
      ['ON_PROGRESS', customer.userId],
      ['DONE', customer.userId],
    ]);
  });

  it('staff file one on the customer\'s behalf, naming the units by serial code (issue 26: a recalled unit to replace)', async () => {
    const { order, customer } = await delivered();
    const code = order.products[1].serialCodes[0].serialCode as string;
    const path = `/api/orders/${order.id}/requests`;
    expect((await h.order.post(path, { type: 'REPLACE', serialCodes: [code] }, { as: customer })).status).toBe(403);
    const unknown = await h.order.post(path, { type: 'REPLACE', serialCodes: ['NOPE-0000001'] }, { as: h.staff });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe(RENTAL_MESSAGES.unknownSerial);
    const created = await h.order.post(path, { type: 'REPLACE', serialCodes: [code.toLowerCase()], note: 'Recall RCL-000001' }, { as: h.staff });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.request).toMatchObject({ type: 'REPLACE', status: 'PENDING', userNote: 'Recall RCL-000001', products: [{ lineID: order.products[1].id }] });
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order.requests.map((r: Json) => r.id)).toEqual([created.body.request.id]);
    const shipping = await rentalToShip();
    const early = await h.order.post(`/api/orders/${shipping.order.id}/requests`, { type: 'FIX', serialCodes: [code] }, { as: h.staff });
    expect(early.status).toBe(409);
  });

  it('only while the rental is ongoing (delivered)', async () => {
    const { order, customer } = await rentalToShip();
    const res = await h.order.post(`/api/my/orders/${order.id}/requests`, { type: 'FIX', lineIDs: [order.products[0].id] }, { as: customer });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(RENTAL_MESSAGES.requestNotOngoing);
  });
});

describe('notices and ongoing rentals', () => {
  it("a customer's notices: due today, then overdue; another customer sees none; the order detail says the same", async () => {
    const customer = h.customer();
    const { order } = await delivered(customer);
    const notices = async (as: Caller) => (await h.order.get('/api/my/notices', { as })).body.items;
    expect(await notices(customer)).toEqual([]);
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order.dueNotice).toBeNull();
    await exec(`update ordering.orders set delivered_at = delivered_at - interval '3 days' where id = ?`, [order.id]);
    expect(await notices(customer)).toEqual([{ kind: 'DUE_TODAY', message: RENTAL_MESSAGES.dueToday, orderID: order.id, orderNumber: order.orderNumber }]);
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order.dueNotice).toBe('DUE_TODAY');
    await exec(`update ordering.orders set delivered_at = delivered_at - interval '1 day' where id = ?`, [order.id]);
    expect(await notices(customer)).toEqual([{ kind: 'OVERDUE', message: RENTAL_MESSAGES.hasDueProducts, orderID: order.id, orderNumber: order.orderNumber }]);
    expect(await notices(h.customer())).toEqual([]);
  });

  it('the tabs: Ongoing (ON_GOING), Due Date, For Return, Picked up (payment PAID)', async () => {
    const tab = async (name: string, search: string) =>
      (await h.order.get(`/api/ongoing-rentals?tab=${name}&search=${encodeURIComponent(search)}`, { as: h.staff })).body.items.map((o: Json) => o.id);
    const a = await delivered();
    const b = await delivered();
    await exec(`update ordering.orders set delivered_at = delivered_at - interval '4 days' where id = ?`, [b.order.id]);
    const ongoing = await h.order.get(`/api/ongoing-rentals?tab=ONGOING&search=${a.order.orderNumber}`, { as: h.staff });
    expect(ongoing.body.items).toEqual([
      expect.objectContaining({ id: a.order.id, displayStatus: 'ON_GOING', initialPayment: '70.00', dueDate: addDays(manilaDate(), 3), status: 'DELIVERED' }),
    ]);
    expect(await tab('DUE_DATE', a.order.orderNumber)).toEqual([]);
    expect(await tab('DUE_DATE', b.order.orderNumber)).toEqual([b.order.id]);
    expect(await tab('ONGOING', b.order.orderNumber)).toEqual([b.order.id]);
    // Every tab's count for the same search comes with any tab's page (issue 27).
    const counts = async (search: string) => (await h.order.get(`/api/ongoing-rentals?tab=FOR_RETURN&search=${encodeURIComponent(search)}`, { as: h.staff })).body.counts;
    expect(await counts(b.order.orderNumber)).toEqual({ ONGOING: 1, DUE_DATE: 1, FOR_RETURN: 0, PICKED_UP: 0 });
    expect(await counts(a.order.orderNumber)).toEqual({ ONGOING: 1, DUE_DATE: 0, FOR_RETURN: 0, PICKED_UP: 0 });
    expect((await move(b.order, 'FOR_RETURN', h.staff)).status).toBe(200);
    expect(await counts(b.order.orderNumber)).toEqual({ ONGOING: 0, DUE_DATE: 0, FOR_RETURN: 1, PICKED_UP: 0 });
    expect(await tab('ONGOING', b.order.orderNumber)).toEqual([]);
    expect(await tab('FOR_RETURN', b.order.orderNumber)).toEqual([b.order.id]);
    expect(await tab('PICKED_UP', b.order.orderNumber)).toEqual([]);
    // Picked up, every serial back OK, full payment asked and taken: the payment is PAID.
    expect((await handOver(h, h.as('DRIVER'), b.order, 'PICKUP')).status).toBe(200);
    for (const code of [...b.walkers, ...b.beds]) {
      expect((await h.order.post(`/api/orders/${b.order.id}/serials/${code}/return`, { status: 'OK' }, { as: h.staff })).status).toBe(200);
    }
    const asked = await move(b.order, 'FOR_FULL_PAYMENT', h.staff);
    expect(asked.body.order.payment).toMatchObject({ extraCharge: '0.00', balance: '1490.00' });
    await h.publish(paymentConfirmed(asked.body.order, 'full', { amount: '1490.00', extraCharge: '0.00', overallTotal: '1560.00', balance: '0.00' }));
    await eventually(async () => ((await tab('PICKED_UP', b.order.orderNumber)).length === 1 ? true : undefined), 10_000);
    expect((await h.order.get('/api/ongoing-rentals?tab=ONGOING', { as: h.as('DRIVER') })).status).toBe(403);
    expect((await h.order.get('/api/ongoing-rentals?tab=NOPE', { as: h.staff })).status).toBe(400);
  });
});

describe('reminders on a durable schedule (issue 24)', () => {
  const today = manilaDate();
  const at = (day: string, time: string) => manilaInstant(day, time);
  /** The reminder events written for an order: [kind, day, dueDate]. */
  const reminders = async (orderId: string) =>
    (
      await exec<{ payload: Json }>(`select payload from ordering.outbox where subject = ? and payload->>'aggregateId' = ? order by created_at`, [EVENTS.rental.reminderDue, orderId])
    ).map((r) => [r.payload.data.kind, r.payload.data.day, r.payload.data.dueDate]);
  /** A delivered rental whose walkers (3 days) are due `walkersDueIn` days from today. */
  const deliveredDueIn = async (walkersDueIn: number) => {
    const r = await delivered();
    await exec(`update ordering.orders set delivered_at = delivered_at - make_interval(days => ?) where id = ?`, [3 - walkersDueIn, r.order.id]);
    return r;
  };

  it('due tomorrow: from 09:00 Manila, once that day, with the date it is about; nothing before 09:00', async () => {
    const { order } = await deliveredDueIn(1);
    await writeDueReminders(h.orderOrm.em.fork(), at(today, '08:59'));
    expect(await reminders(order.id)).toEqual([]);
    await writeDueReminders(h.orderOrm.em.fork(), at(today, '09:00'));
    await writeDueReminders(h.orderOrm.em.fork(), at(today, '17:45'));
    expect(await reminders(order.id)).toEqual([['DUE_TOMORROW', today, addDays(today, 1)]]);
    const [event] = await exec<{ payload: Json }>(`select payload from ordering.outbox where subject = ? and payload->>'aggregateId' = ?`, [EVENTS.rental.reminderDue, order.id]);
    expect(event!.payload.data).toMatchObject({ orderNumber: order.orderNumber, customerId: order.customerID });
  });

  it('due in two days: nothing today; the next day, due tomorrow (the round reads the rentals due by the day after its own)', async () => {
    const { order } = await deliveredDueIn(2);
    await writeDueReminders(h.orderOrm.em.fork(), at(today, '09:00'));
    expect(await reminders(order.id)).toEqual([]);
    await writeDueReminders(h.orderOrm.em.fork(), at(addDays(today, 1), '09:00'));
    expect(await reminders(order.id)).toEqual([['DUE_TOMORROW', addDays(today, 1), addDays(today, 2)]]);
  });

  it('two replicas running the round at the same moment write one reminder', async () => {
    const { order } = await deliveredDueIn(0);
    await Promise.all(Array.from({ length: 4 }, () => writeDueReminders(h.orderOrm.em.fork(), at(today, '09:00'))));
    expect(await reminders(order.id)).toEqual([['DUE_TODAY', today, today]]);
  });

  it('overdue: every day until it comes back, one a day', async () => {
    const { order } = await deliveredDueIn(-1);
    const tomorrow = addDays(today, 1);
    await writeDueReminders(h.orderOrm.em.fork(), at(today, '09:00'));
    await writeDueReminders(h.orderOrm.em.fork(), at(tomorrow, '09:05'));
    await writeDueReminders(h.orderOrm.em.fork(), at(tomorrow, '13:00'));
    const walkersDue = addDays(today, -1);
    expect(await reminders(order.id)).toEqual([
      ['OVERDUE', today, walkersDue],
      ['OVERDUE', tomorrow, walkersDue],
    ]);
  });

  it('a schedule (re)started after 09:00 sends the day’s reminder on start; nothing once the rental is back', async () => {
    const { order } = await deliveredDueIn(0);
    const loop = startReminderSchedule({ em: h.orderOrm.em, logger: createLogger('reminders-test', 'silent'), everyMs: 60_000, now: () => at(today, '11:30') });
    try {
      await eventually(async () => ((await reminders(order.id)).length === 1 ? true : undefined), 10_000);
    } finally {
      await loop.stop();
    }
    expect(await reminders(order.id)).toEqual([['DUE_TODAY', today, today]]);
    // Back with us (picked up): tomorrow's round has nothing to say.
    await exec(`update ordering.orders set status = 'FOR_PICK_UP' where id = ?`, [order.id]);
    await writeDueReminders(h.orderOrm.em.fork(), at(addDays(today, 1), '09:00'));
    expect(await reminders(order.id)).toHaveLength(1);
  });
});
