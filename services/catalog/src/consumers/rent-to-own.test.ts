import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, EVENTS, manilaDate, type EventEnvelope, type OrderStatus, type Product } from '@dme/contracts';
import { eventEnvelope } from '@dme/platform';
import { leaf, ledger, recount } from '@dme/testing/ledger';
import { simpleProduct, startCatalog, type CatalogHarness } from '../test/harness';
import { confirm, reserve } from '../modules/reservations/reservation.service';
import { assignSerials } from '../modules/stock/packing.service';
import { returnSerial } from '../modules/stock/returns.service';
import { handleOrderEvents } from './orders';

/**
 * Rent-to-own (issue 29): a rental that became the customer's while out (DELIVERED or FOR_RETURN
 * → COMPLETED, contracts `completedByOwnership`) has its units SOLD, written BOUGHT_OUT in their
 * chain of custody, and its bookings end that day; a normal completion (FOR_FULL_PAYMENT →
 * COMPLETED, the units back) moves nothing.
 */
let h: CatalogHarness;
let binId: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'Rent to own', description: 'bin' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
const today = () => manilaDate();
const STAFF = randomUUID();

const rentable = async (): Promise<Product> => {
  const res = await h.api.post('/api/products', simpleProduct({ type: 'FOR_RENT' }), { as: h.staff });
  expect(res.status).toBe(201);
  return res.body.product;
};
const addStock = async (productID: string, quantity: number): Promise<string[]> => {
  const res = await h.api.post('/api/stocks', { warehouseBinID: binId, productID, quantity }, { as: h.staff });
  expect(res.status).toBe(201);
  return res.body.items.map((i: { serialCode: string }) => i.serialCode).sort();
};

/** The consumer's batch, in one transaction as the consumer runs it. */
const feed = (events: EventEnvelope[]) => em().transactional((tem) => handleOrderEvents(tem, events));

/** A rental of one unit for `days` days from today, placed (its event too), packed with `code` and delivered today. */
async function deliveredRental(p: Product, code: string, days: number, customerName: string) {
  const orderId = randomUUID();
  const orderNumber = `ORD-${orderId.slice(0, 6)}`;
  const customerId = randomUUID();
  await reserve(em(), {
    orderId,
    orderType: 'RENT',
    lines: [{ ref: 0, productID: p.id, productVariantID: null, productSubVariantID: null, quantity: 1, startDate: today(), noOfRentalDays: days }],
  });
  await confirm(em(), orderId);
  await feed([
    eventEnvelope('test', {
      type: EVENTS.order.placed,
      aggregateId: orderId,
      data: { orderId, orderNumber, customerId, type: 'RENT', typeOfOrder: null, totalAmount: '1.00', customer: { name: customerName, email: 'c@example.com', contactNumber: '1' }, lines: [] },
    }),
  ]);
  await assignSerials(em(), {
    orderId,
    orderType: 'RENT',
    lines: [{ lineId: randomUUID(), productID: p.id, productVariantID: null, productSubVariantID: null, productName: p.name, quantity: 1, serialCodes: [code] }],
  });
  await feed([statusEvent({ orderId, orderNumber, customerId }, 'OUT_FOR_DELIVERY', 'DELIVERED', today())]);
  return { orderId, orderNumber, customerId };
}

/** The order's status event, occurring at noon Manila on `day`. */
function statusEvent(o: { orderId: string; orderNumber: string; customerId: string }, from: OrderStatus, to: OrderStatus, day: string, type: 'RENT' | 'BUY' = 'RENT'): EventEnvelope {
  return {
    ...eventEnvelope('test', {
      type: EVENTS.order.statusChanged,
      aggregateId: o.orderId,
      data: { orderId: o.orderId, orderNumber: o.orderNumber, customerId: o.customerId, type, from, to, by: STAFF, byName: 'ana' },
    }),
    occurredAt: new Date(`${day}T04:00:00Z`).toISOString(),
  };
}

const unit = async (code: string) =>
  (
    await em().execute<Array<{ id: string; status: string; inventory_type: string; order_id: string | null; since_ms: number }>>(
      `select id, status, inventory_type, order_id, (extract(epoch from status_since) * 1000)::float8 as since_ms from catalog.stock_items where serial_code = ?`,
      [code],
    )
  )[0]!;
const custody = (code: string) =>
  em().execute<Array<{ kind: string; status: string | null; party: string | null; order_number: string | null; by_name: string | null; at: string; source_event_id: string | null }>>(
    `select kind, status, party, order_number, by_name, at, source_event_id from catalog.custody_events where serial_code = ? order by seq`,
    [code],
  );
const bookingsOf = (orderId: string) =>
  em().execute<Array<{ start: string; end: string; due: string; status: string }>>(
    `select to_char(lower(period), 'YYYY-MM-DD') as start, to_char(upper(period), 'YYYY-MM-DD') as end, to_char(due_date, 'YYYY-MM-DD') as due, status
       from catalog.bookings where order_id = ? order by lower(period)`,
    [orderId],
  );
/** A downtime of the unit over [from, to), inserted as staff would block it: refused by the exclusion constraint where a booking takes those days. */
const block = (stockItemId: string, productId: string, from: string, to: string) =>
  em().execute(
    `insert into catalog.bookings (id, kind, order_id, stock_item_id, leaf_id, product_id, period, due_date, reason, status)
     values (?, 'DOWNTIME', null, ?, ?, ?, daterange(?::date, ?::date), ?::date, 'MAINTENANCE', 'ACTIVE')`,
    [randomUUID(), stockItemId, productId, productId, from, to, from],
  );

describe('rent-to-own: a rental that became the customer\'s while out (issue 29)', () => {
  it('DELIVERED → COMPLETED: its unit is SOLD with one BOUGHT_OUT entry, its booking ends that day, the ledger counts it sold', async () => {
    const p = await rentable();
    const [code] = await addStock(p.id, 1);
    const o = await deliveredRental(p, code!, 10, 'Rosa Reyes');
    const before = await unit(code!);
    expect(before).toMatchObject({ status: 'RENTED', inventory_type: 'OUT', order_id: o.orderId });
    expect(await bookingsOf(o.orderId)).toEqual([{ start: today(), due: addDays(today(), 10), end: addDays(today(), 11), status: 'ACTIVE' }]);
    expect((await ledger(em(), [p.id])).get(p.id)).toEqual(leaf({ quantity: 1, rented: 1 }));

    // Bought out on the third day; the event comes twice in one batch, and once more later.
    const day = addDays(today(), 3);
    const owned = statusEvent(o, 'DELIVERED', 'COMPLETED', day);
    await feed([owned, owned]);
    await feed([owned]);

    const after = await unit(code!);
    expect(after).toMatchObject({ status: 'SOLD', inventory_type: 'OUT', order_id: o.orderId });
    expect(after.since_ms).toBeGreaterThan(before.since_ms);
    const entries = await custody(code!);
    expect(entries.map((e) => e.kind)).toEqual(['STOCKED', 'RESERVED', 'PACKED', 'DELIVERED', 'BOUGHT_OUT']);
    expect(entries.at(-1)).toMatchObject({ kind: 'BOUGHT_OUT', status: 'SOLD', party: 'Rosa Reyes', order_number: o.orderNumber, by_name: 'ana', source_event_id: owned.id });
    expect(new Date(entries.at(-1)!.at).toISOString()).toBe(owned.occurredAt);

    // The booking ends on the day it became theirs, no turnaround: the days after are free.
    expect(await bookingsOf(o.orderId)).toEqual([{ start: today(), due: day, end: addDays(day, 1), status: 'ACTIVE' }]);
    await expect(block(after.id, p.id, day, addDays(day, 1))).rejects.toThrow(/bookings_no_overlap/);
    await block(after.id, p.id, addDays(day, 1), addDays(today(), 11));

    // The ledger moved it from rented to sold, and agrees with a recount.
    expect((await ledger(em(), [p.id])).get(p.id)).toEqual(leaf({ quantity: 1, sold: 1 }));
    expect(await ledger(em(), [p.id])).toEqual(await recount(em(), [p.id]));
  });

  it('FOR_RETURN → COMPLETED (its billing cycles paid while a pick-up was asked): SOLD too; a booking never grows', async () => {
    const p = await rentable();
    const [code] = await addStock(p.id, 1);
    const o = await deliveredRental(p, code!, 2, 'Lito Santos');
    // Completed after its due date: the booking (due on day 2, ending on day 3) is not lengthened to day 5.
    const owned = statusEvent(o, 'FOR_RETURN', 'COMPLETED', addDays(today(), 5));
    await feed([owned]);
    expect((await unit(code!)).status).toBe('SOLD');
    expect((await custody(code!)).filter((e) => e.kind === 'BOUGHT_OUT')).toHaveLength(1);
    expect(await bookingsOf(o.orderId)).toEqual([{ start: today(), due: addDays(today(), 2), end: addDays(today(), 3), status: 'ACTIVE' }]);
  });

  it('a normal completion (FOR_FULL_PAYMENT → COMPLETED) changes no unit to SOLD, nor its booking; nor does a purchase completing', async () => {
    const p = await rentable();
    const [back, out] = await addStock(p.id, 2);
    // Its unit came back OK: returned, its booking cut at the return.
    const normal = await deliveredRental(p, back!, 10, 'Ben Cruz');
    await returnSerial(em(), { orderId: normal.orderId, serialCode: back!, status: 'OK' });
    const cut = await bookingsOf(normal.orderId);
    await feed([statusEvent(normal, 'FOR_FULL_PAYMENT', 'COMPLETED', addDays(today(), 1))]);
    expect((await unit(back!)).status).toBe('RETURNED');
    expect(await bookingsOf(normal.orderId)).toEqual(cut);
    // A rental whose unit is still out completing from FOR_FULL_PAYMENT, or a purchase's
    // DELIVERED → COMPLETED of the same order id: neither is rent-to-own, the unit stays RENTED.
    const other = await deliveredRental(p, out!, 10, 'Cora Lim');
    const booked = await bookingsOf(other.orderId);
    await feed([statusEvent(other, 'FOR_FULL_PAYMENT', 'COMPLETED', addDays(today(), 1)), statusEvent(other, 'DELIVERED', 'COMPLETED', addDays(today(), 1), 'BUY')]);
    expect((await unit(out!)).status).toBe('RENTED');
    expect(await bookingsOf(other.orderId)).toEqual(booked);
    expect((await custody(back!)).concat(await custody(out!)).filter((e) => e.kind === 'BOUGHT_OUT')).toEqual([]);
    expect((await ledger(em(), [p.id])).get(p.id)).toEqual(leaf({ quantity: 2, returned: 1, rented: 1 }));
  });
});
