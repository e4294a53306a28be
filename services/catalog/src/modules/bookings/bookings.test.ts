import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays, BOOKING_MESSAGES, manilaDate, ORDER_MESSAGES, type Product } from '@dme/contracts';
import { HttpProblem } from '@dme/platform';
import { simpleProduct, startCatalog, wheelchair, type CatalogHarness } from '../../test/harness';
import { ledger, nonZero, recount } from '@dme/testing/ledger';
import { confirm, release, reserve, reserveOrders } from '../reservations/reservation.service';
import { assignSerials } from '../stock/packing.service';
import { returnSerial } from '../stock/returns.service';
import { handleOrderEvents } from '../../consumers/orders';
import { extendBookings } from './extend';
import { labelBookings } from './booking.service';
import { eventEnvelope } from '@dme/platform';
import { EVENTS } from '@dme/contracts';

let h: CatalogHarness;
let binId: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'Bookings', description: 'bin' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());
afterEach(() => {
  vi.useRealTimers();
});

const em = () => h.orm.em.fork();
const today = () => manilaDate();
const rentable = async (overrides: Record<string, unknown> = {}): Promise<Product> => {
  const res = await h.api.post('/api/products', simpleProduct({ type: 'FOR_RENT', ...overrides }), { as: h.staff });
  expect(res.status).toBe(201);
  return res.body.product;
};
/** Adds stock and answers the new serial codes, in order. */
const addStock = async (productID: string, quantity: number, more: Record<string, unknown> = {}): Promise<string[]> => {
  const res = await h.api.post('/api/stocks', { warehouseBinID: binId, productID, quantity, ...more }, { as: h.staff });
  expect(res.status).toBe(201);
  return res.body.items.map((i: { serialCode: string }) => i.serialCode).sort();
};

interface Want {
  productID: string;
  quantity: number;
  startDate?: string;
  days?: number;
  productVariantID?: string | null;
}
/** A rental reserved and confirmed in the catalog (placed), or the problem it was refused with. */
async function rent(wants: Want[], orderId = randomUUID()) {
  try {
    const reply = await reserve(em(), {
      orderId,
      orderType: 'RENT',
      lines: wants.map((w, ref) => ({ ref, productID: w.productID, productVariantID: w.productVariantID ?? null, productSubVariantID: null, quantity: w.quantity, startDate: w.startDate ?? null, noOfRentalDays: w.days ?? 1 })),
    });
    await confirm(em(), orderId);
    return { ok: true as const, orderId, reply };
  } catch (err) {
    if (err instanceof HttpProblem) return { ok: false as const, orderId, status: err.status, detail: err.detail ?? '', errors: err.errors ?? [] };
    throw err;
  }
}
/** The order's bookings: unit code and [start, end) days. */
async function bookingsOf(orderId: string) {
  return em().execute<Array<{ serial_code: string; start: string; end: string; due: string; status: string }>>(
    `select i.serial_code, to_char(lower(b.period), 'YYYY-MM-DD') as start, to_char(upper(b.period), 'YYYY-MM-DD') as end,
            to_char(b.due_date, 'YYYY-MM-DD') as due, b.status
       from catalog.bookings b join catalog.stock_items i on i.id = b.stock_item_id where b.order_id = ? order by i.serial_code`,
    [orderId],
  );
}
const availability = async (p: Product, query: Record<string, string | number>) => {
  const res = await h.api.get(`/api/products/${p.id}/availability?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { days: Array<{ date: string; free: number; freeForRental: number; startable: boolean }>; firstStartDate: string | null; units: number; turnaroundDays: number };
};
const noOverlaps = async () => {
  const [row] = await em().execute<Array<{ n: number }>>(
    `select count(*)::int as n from catalog.bookings a join catalog.bookings b
       on a.stock_item_id = b.stock_item_id and a.id < b.id and a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.period && b.period`,
  );
  return row!.n;
};

describe('bookings per unit: the database makes an overlap impossible', () => {
  it('the exclusion constraint refuses an overlapping booking inserted directly in SQL, and takes one that only touches', async () => {
    const p = await rentable();
    const [code] = await addStock(p.id, 1);
    const [item] = await em().execute<Array<{ id: string }>>(`select id from catalog.stock_items where serial_code = ?`, [code]);
    const insert = (from: string, to: string) =>
      em().execute(
        `insert into catalog.bookings (id, kind, order_id, stock_item_id, leaf_id, product_id, period, due_date, status)
         values (?, 'RENTAL', ?, ?, ?, ?, daterange(?::date, ?::date), ?::date, 'ACTIVE')`,
        [randomUUID(), randomUUID(), item!.id, p.id, p.id, from, to, from],
      );
    await insert('2027-01-10', '2027-01-15');
    await expect(insert('2027-01-14', '2027-01-20')).rejects.toThrow(/bookings_no_overlap/);
    await expect(insert('2027-01-01', '2027-01-11')).rejects.toThrow(/bookings_no_overlap/);
    await insert('2027-01-15', '2027-01-18');
    await insert('2027-01-05', '2027-01-10');
    expect(await noOverlaps()).toBe(0);
  });
});

describe('dated rentals at checkout', () => {
  it('books units for a future period with the turnaround; an overlapping order is refused with the spec message and the first start that works', async () => {
    const p = await rentable({ turnaroundDays: 2 });
    const codes = await addStock(p.id, 2);
    const start = addDays(today(), 7);
    const a = await rent([{ productID: p.id, quantity: 2, startDate: start, days: 3 }]);
    expect(a.ok).toBe(true);
    // [start, due + 2 turnaround days), due = start + 3.
    expect(await bookingsOf(a.orderId)).toEqual(
      codes.map((c) => ({ serial_code: c, start, due: addDays(start, 3), end: addDays(start, 5), status: 'ACTIVE' })),
    );
    // Today is free still: a rental today for up to 5 days + 2 turnaround fits before it (ends on start).
    expect((await rent([{ productID: p.id, quantity: 2, days: 5 }])).ok).toBe(true);
    // A rental in the turnaround of the first one is refused; the answer names the first start that works.
    const b = await rent([{ productID: p.id, quantity: 1, startDate: addDays(start, 4), days: 1 }]);
    expect(b.ok).toBe(false);
    if (b.ok) return;
    expect(b.status).toBe(409);
    expect(b.detail).toContain(ORDER_MESSAGES.maxStock);
    expect(b.detail).toContain(BOOKING_MESSAGES.firstFree(addDays(start, 5)));
    expect(b.errors).toEqual([{ field: 'lines.0.startDate', message: BOOKING_MESSAGES.firstFree(addDays(start, 5)) }]);
    // Nothing was booked for the refused order.
    expect(await bookingsOf(b.orderId)).toEqual([]);
    expect((await rent([{ productID: p.id, quantity: 2, startDate: addDays(start, 5), days: 1 }])).ok).toBe(true);
    expect(await noOverlaps()).toBe(0);
  });

  it('an order is booked all or nothing: one short line books nothing of the others', async () => {
    const p = await rentable();
    const q = await rentable();
    await addStock(p.id, 3);
    await addStock(q.id, 1);
    const start = addDays(today(), 3);
    const r = await rent([
      { productID: p.id, quantity: 2, startDate: start },
      { productID: q.id, quantity: 2, startDate: start },
    ]);
    expect(r.ok).toBe(false);
    expect(await bookingsOf(r.orderId)).toEqual([]);
    const reservations = await em().execute(`select 1 from catalog.reservations where order_id = ?`, [r.orderId]);
    expect(reservations).toEqual([]);
  });

  it('a retry of the same order answers the same and books nothing more', async () => {
    const p = await rentable();
    await addStock(p.id, 2);
    const orderId = randomUUID();
    const start = addDays(today(), 2);
    const first = await rent([{ productID: p.id, quantity: 1, startDate: start }], orderId);
    const again = await rent([{ productID: p.id, quantity: 1, startDate: start }], orderId);
    expect(again.ok && first.ok && again.reply).toEqual(first.ok && first.reply);
    expect(await bookingsOf(orderId)).toHaveLength(1);
  });

  it('an order asked twice in one batch (a retry that came with its first try) is booked once', async () => {
    const p = await rentable();
    await addStock(p.id, 5);
    const orderId = randomUUID();
    const input = { orderId, orderType: 'RENT' as const, lines: [{ ref: 0, productID: p.id, productVariantID: null, productSubVariantID: null, quantity: 2, startDate: addDays(today(), 1), noOfRentalDays: 1 }] };
    const [one, two] = await reserveOrders(em(), [input, input]);
    expect(one).toEqual(two);
    expect(await bookingsOf(orderId)).toHaveLength(2);
    const rows = await em().execute<Array<{ quantity: number }>>(`select quantity from catalog.reservations where order_id = ?`, [orderId]);
    expect(rows).toEqual([{ quantity: 2 }]);
  });

  it('cancelling frees the days at once; the counts ledger is untouched by dated holds', async () => {
    const p = await rentable();
    await addStock(p.id, 1);
    const a = await rent([{ productID: p.id, quantity: 1 }]);
    expect(a.ok).toBe(true);
    // Booked today: the product shows none available today.
    expect((await h.api.get(`/api/products/${p.id}`)).body.product.availableQuantity).toBe(0);
    expect((await rent([{ productID: p.id, quantity: 1 }])).ok).toBe(false);
    await release(em(), a.orderId);
    expect((await bookingsOf(a.orderId)).map((b) => b.status)).toEqual(['CANCELLED']);
    expect((await h.api.get(`/api/products/${p.id}`)).body.product.availableQuantity).toBe(1);
    expect((await rent([{ productID: p.id, quantity: 1 }])).ok).toBe(true);
    expect(nonZero(await ledger(em(), [p.id]))).toEqual(nonZero(await recount(em(), [p.id])));
  });
});

describe('reserved units on the stock screens (issue 27)', () => {
  it("marks the unit a rental placed for today holds as Reserved, with its order once known; the list agrees with the available count", async () => {
    const p = await rentable();
    await addStock(p.id, 4);
    const stock = async () => {
      const res = await h.api.get(`/api/stocks?productID=${p.id}`, { as: h.staff });
      expect(res.status).toBe(200);
      return res.body.items as Array<{ serialCode: string; status: string; reservedFor: { kind: string; orderID: string | null; orderNumber: string | null; until: string } | null }>;
    };
    const available = async () => (await h.api.get(`/api/products/${p.id}`)).body.product.availableQuantity as number;
    expect((await stock()).map((i) => i.reservedFor)).toEqual([null, null, null, null]);
    expect(await available()).toBe(4);

    // A rental for today, 2 days: one unit is booked, the count says 3 and one row says why.
    const a = await rent([{ productID: p.id, quantity: 1, days: 2 }]);
    expect(a.ok).toBe(true);
    const [booked] = await bookingsOf(a.orderId);
    let items = await stock();
    expect(items.every((i) => i.status === 'AVAILABLE')).toBe(true);
    const reserved = items.filter((i) => i.reservedFor);
    expect(reserved.map((i) => i.serialCode)).toEqual([booked!.serial_code]);
    expect(reserved[0]!.reservedFor).toEqual({ kind: 'ORDER', orderID: a.orderId, orderNumber: null, until: addDays(today(), 2) });
    expect(await available()).toBe(items.length - reserved.length);

    // The order's number arrives with dme.order.placed.
    await labelBookings(em(), [{ orderId: a.orderId, orderNumber: 'ORD-20261201-000042', customerName: 'Maria Santos' }]);
    items = await stock();
    expect(items.find((i) => i.reservedFor)!.reservedFor).toMatchObject({ orderNumber: 'ORD-20261201-000042' });

    // A rental booked for later takes nothing today: not marked, not counted.
    const later = await rent([{ productID: p.id, quantity: 1, startDate: addDays(today(), 10), days: 1 }]);
    expect(later.ok).toBe(true);
    items = await stock();
    expect(items.filter((i) => i.reservedFor)).toHaveLength(1);
    expect(await available()).toBe(3);

    // Cancelled: the unit is free again and unmarked.
    await release(em(), a.orderId);
    expect((await stock()).filter((i) => i.reservedFor)).toHaveLength(0);
    expect(await available()).toBe(4);
  });
});

describe('Manila calendar edges', () => {
  it('at 23:30 Manila a rental for today starts today (not tomorrow, not UTC\'s day); turnaround runs across the month end', async () => {
    const p = await rentable();
    await addStock(p.id, 1);
    // 2026-12-31 is ahead of the real clock: the booking horizon holds. 23:30 Manila on the 30th = 15:30 UTC.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-30T15:30:00Z') });
    expect(manilaDate()).toBe('2026-12-30');
    const a = await rent([{ productID: p.id, quantity: 1, days: 1 }]);
    expect(a.ok).toBe(true);
    // Due on the 31st, turnaround to 1 January (exclusive end 2027-01-01).
    expect(await bookingsOf(a.orderId)).toEqual([expect.objectContaining({ start: '2026-12-30', due: '2026-12-31', end: '2027-01-01' })]);
    const clash = await rent([{ productID: p.id, quantity: 1, startDate: '2026-12-31' }]);
    expect(clash.ok).toBe(false);
    if (!clash.ok) expect(clash.detail).toContain(BOOKING_MESSAGES.firstFree('2027-01-01'));
    // 00:30 Manila on the 31st is still the 30th in UTC: today is the 31st, and the 30th's booking is past.
    vi.setSystemTime(new Date('2026-12-30T16:30:00Z'));
    expect(manilaDate()).toBe('2026-12-31');
    const avail = await availability(p, { from: '2026-12-30', to: '2027-01-02' });
    expect(avail.days).toEqual([
      { date: '2026-12-30', free: 0, freeForRental: 0, startable: false },
      { date: '2026-12-31', free: 0, freeForRental: 0, startable: false },
      { date: '2027-01-01', free: 1, freeForRental: 1, startable: true },
      { date: '2027-01-02', free: 1, freeForRental: 1, startable: true },
    ]);
    expect(avail.firstStartDate).toBe('2027-01-01');
  });
});

describe('availability over days', () => {
  it('per day the free units, and on which days a rental of N units for D days may start; the first such day', async () => {
    const p = await rentable();
    await addStock(p.id, 3);
    const s = addDays(today(), 10);
    expect((await rent([{ productID: p.id, quantity: 2, startDate: s, days: 2 }])).ok).toBe(true); // [s, s+3)
    const avail = await availability(p, { from: addDays(s, -2), to: addDays(s, 4), quantity: 2, days: 2 });
    expect(avail.units).toBe(3);
    expect(avail.turnaroundDays).toBe(1);
    expect(avail.days.map((d) => [d.date, d.free, d.freeForRental, d.startable])).toEqual([
      [addDays(s, -2), 3, 1, false], // s-2 .. s+1 (2 days + turnaround) overlaps s: one unit for the whole rental
      [addDays(s, -1), 3, 1, false],
      [s, 1, 1, false],
      [addDays(s, 1), 1, 1, false],
      [addDays(s, 2), 1, 1, false],
      [addDays(s, 3), 3, 3, true],
      [addDays(s, 4), 3, 3, true],
    ]);
    // The first start from the window's first day on; from today, today itself.
    expect(avail.firstStartDate).toBe(addDays(s, 3));
    expect((await availability(p, { from: today(), to: today(), quantity: 2, days: 2 })).firstStartDate).toBe(today());
    expect((await availability(p, { from: addDays(s, 1), to: addDays(s, 1), quantity: 3, days: 1 })).firstStartDate).toBe(addDays(s, 3));
    // A window that is too long or reversed is a 400 problem, not a 500.
    expect((await h.api.get(`/api/products/${p.id}/availability?from=${s}&to=${addDays(s, -1)}`)).status).toBe(400);
    expect((await h.api.get(`/api/products/${p.id}/availability?from=${s}&to=${addDays(s, 400)}`)).status).toBe(400);
  });

  it('a purchase product has no dates (400); an unknown product is 404', async () => {
    const p = await h.api.post('/api/products', simpleProduct({ type: 'FOR_SALE' }), { as: h.staff });
    expect((await h.api.get(`/api/products/${p.body.product.id}/availability?from=${today()}&to=${today()}`)).status).toBe(400);
    expect((await h.api.get(`/api/products/${randomUUID()}/availability?from=${today()}&to=${today()}`)).status).toBe(404);
  });
});

describe('extensions', () => {
  it('an order\'s bookings get more days while the unit is free after them, turnaround included; a retry converges; refused says how many days fit', async () => {
    const p = await rentable();
    await addStock(p.id, 1);
    const s = addDays(today(), 10);
    const a = await rent([{ productID: p.id, quantity: 1, startDate: s, days: 2 }]); // [s, s+3)
    const b = await rent([{ productID: p.id, quantity: 1, startDate: addDays(s, 5), days: 1 }]); // [s+5, s+7)
    expect(a.ok && b.ok).toBe(true);
    const ext = (seq: number, days: number) => extendBookings(em(), { orderId: a.orderId, seq, days });
    expect(await ext(1, 1)).toEqual({ ok: true, maxDays: 1, units: 1 });
    expect(await bookingsOf(a.orderId)).toEqual([expect.objectContaining({ start: s, due: addDays(s, 3), end: addDays(s, 4) })]);
    // The same extension asked again: nothing added.
    expect((await ext(1, 1)).ok).toBe(true);
    expect(await bookingsOf(a.orderId)).toEqual([expect.objectContaining({ due: addDays(s, 3), end: addDays(s, 4) })]);
    // Asked again with 2 days (the order's first try failed and the customer asked for more): 2 in all.
    expect((await ext(1, 2)).ok).toBe(true);
    expect(await bookingsOf(a.orderId)).toEqual([expect.objectContaining({ due: addDays(s, 4), end: addDays(s, 5) })]);
    // B starts on s+5: not one day more (the turnaround runs to it); extension 1 could be 2 days at most.
    expect(await ext(2, 1)).toEqual({ ok: false, maxDays: 0, units: 1 });
    expect(await ext(1, 3)).toEqual({ ok: false, maxDays: 2, units: 1 });
    expect(await bookingsOf(a.orderId)).toEqual([expect.objectContaining({ due: addDays(s, 4), end: addDays(s, 5) })]);
    // B cancelled: the days are free.
    await release(em(), b.orderId);
    expect((await ext(2, 4)).ok).toBe(true);
    expect(await bookingsOf(a.orderId)).toEqual([expect.objectContaining({ due: addDays(s, 8), end: addDays(s, 9) })]);
    expect(await noOverlaps()).toBe(0);
  });
});

describe("availability of the shop's grid", () => {
  it('a page of products at once: free units per day over all levels, startable when some level serves the rental; first start beyond the window', async () => {
    const s = addDays(today(), 20);
    // One unit, booked [s, s+2) (1 day + 1 turnaround).
    const single = await rentable();
    await addStock(single.id, 1);
    expect((await rent([{ productID: single.id, quantity: 1, startDate: s, days: 1 }])).ok).toBe(true);
    // Two levels with a unit each: level A booked from s for 5 days, level B free.
    const levels = await rentable({ variants: [{ name: 'A', price: '10.00', damageCharges: '1.00' }, { name: 'B', price: '12.00', damageCharges: '1.00' }] });
    const [va, vb] = levels.variants;
    await addStock(levels.id, 1, { productVariantID: va!.id });
    await addStock(levels.id, 1, { productVariantID: vb!.id });
    expect((await rent([{ productID: levels.id, productVariantID: va!.id, quantity: 1, startDate: s, days: 5 }])).ok).toBe(true);
    const empty = await rentable();
    const sale = (await h.api.post('/api/products', simpleProduct({ type: 'FOR_SALE' }), { as: h.staff })).body.product as Product;
    const ids = [single.id, levels.id, empty.id, sale.id, randomUUID()].join(',');
    const res = await h.api.get(`/api/availability?productIDs=${ids}&from=${s}&to=${addDays(s, 2)}&days=1`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const items = res.body.items as Array<{ productID: string; units: number; days: Array<{ date: string; free: number; startable: boolean }>; firstStartDate: string | null }>;
    // Only the rental products, in the order asked.
    expect(items.map((i) => i.productID)).toEqual([single.id, levels.id, empty.id]);
    const [one, two, none] = items;
    expect(one!.units).toBe(1);
    expect(one!.days.map((d) => [d.date, d.free, d.startable])).toEqual([[s, 0, false], [addDays(s, 1), 0, false], [addDays(s, 2), 1, true]]);
    expect(one!.firstStartDate).toBe(addDays(s, 2));
    expect(two!.units).toBe(2);
    expect(two!.days.map((d) => [d.free, d.startable])).toEqual([[1, true], [1, true], [1, true]]);
    expect(none).toEqual(expect.objectContaining({ units: 0, firstStartDate: null }));
    expect(none!.days.every((d) => d.free === 0 && !d.startable)).toBe(true);
    // Nothing startable in the window: the first start beyond it.
    const later = await h.api.get(`/api/availability?productIDs=${single.id}&from=${s}&to=${addDays(s, 1)}&days=1`);
    expect(later.body.items[0].firstStartDate).toBe(addDays(s, 2));
    // Bad input is a 400 problem: no ids, a bad id, too many, a reversed window.
    for (const q of ['productIDs=&from=' + s + '&to=' + s, `productIDs=nope&from=${s}&to=${s}`, `productIDs=${Array.from({ length: 25 }, () => randomUUID()).join(',')}&from=${s}&to=${s}`, `productIDs=${single.id}&from=${s}&to=${addDays(s, -1)}`]) {
      expect((await h.api.get(`/api/availability?${q}`)).status, q).toBe(400);
    }
  });
});

describe("the grid's answers are shared for a second", () => {
  it('a downtime (a catalog write) shows on the grid at once: the shared answers are cleared', async () => {
    const p = await rentable();
    const [c1] = await addStock(p.id, 1);
    const s = addDays(today(), 40);
    const ask = async () => {
      const res = await h.api.get(`/api/availability?productIDs=${p.id}&from=${s}&to=${s}`);
      expect(res.status).toBe(200);
      return res.body.items[0].days[0] as { free: number; startable: boolean };
    };
    expect(await ask()).toEqual({ date: s, free: 1, startable: true });
    const unit = (await em().execute<Array<{ id: string }>>('select id from catalog.stock_items where serial_code = ?', [c1]))[0]!.id;
    expect((await h.api.post('/api/downtime', { stockItemID: unit, from: s, to: s, reason: 'MAINTENANCE' }, { as: h.staff })).status).toBe(201);
    expect(await ask()).toEqual({ date: s, free: 0, startable: false });
  });
});

describe('packing a dated rental', () => {
  it('a scanned unit that is free takes the booking; a unit booked by another order for those days is refused, naming it', async () => {
    const p = await rentable();
    const [c1, c2, c3] = await addStock(p.id, 3);
    const a = await rent([{ productID: p.id, quantity: 1, days: 2 }]);
    const b = await rent([{ productID: p.id, quantity: 1, days: 2 }]);
    expect(a.ok && b.ok).toBe(true);
    // Units are taken in serial order: A has c1, B has c2. The calendar learns B's order number from its event.
    expect((await bookingsOf(a.orderId)).map((x) => x.serial_code)).toEqual([c1]);
    expect((await bookingsOf(b.orderId)).map((x) => x.serial_code)).toEqual([c2]);
    await handleOrderEvents(em(), [
      eventEnvelope('test', {
        type: EVENTS.order.placed,
        aggregateId: b.orderId,
        data: { orderId: b.orderId, orderNumber: 'ORD-B', customerId: randomUUID(), type: 'RENT', typeOfOrder: null, totalAmount: '1.00', customer: { name: 'Bea Cruz', email: 'b@example.com', contactNumber: '1' }, lines: [] },
      }),
    ]);
    const line = (code: string) => [{ lineId: randomUUID(), productID: p.id, productVariantID: null, productSubVariantID: null, productName: p.name, quantity: 1, serialCodes: [code] }];
    // A scans c2, which B booked for the same days: refused, naming B's order and days.
    const refused = await assignSerials(em(), { orderId: a.orderId, orderType: 'RENT', lines: line(c2!) }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpProblem);
    expect((refused as HttpProblem).status).toBe(409);
    expect((refused as HttpProblem).detail).toBe(BOOKING_MESSAGES.bookedOtherwise(c2!, 'ORD-B', today(), addDays(today(), 2)));
    // A scans c3, free: its booking moves from c1 to c3, in the same transaction as the packing.
    await assignSerials(em(), { orderId: a.orderId, orderType: 'RENT', lines: line(c3!) });
    expect((await bookingsOf(a.orderId)).map((x) => x.serial_code)).toEqual([c3]);
    // c1 is free again: a rental for today can take it.
    const c = await rent([{ productID: p.id, quantity: 1 }]);
    expect(c.ok).toBe(true);
    expect((await bookingsOf(c.orderId)).map((x) => x.serial_code)).toEqual([c1]);
    expect(await noOverlaps()).toBe(0);
  });
});

describe('returns and overdue units', () => {
  it('a unit back early frees the rest of its booking after its turnaround', async () => {
    const p = await rentable();
    const [code] = await addStock(p.id, 1);
    const a = await rent([{ productID: p.id, quantity: 1, days: 10 }]);
    await assignSerials(em(), { orderId: a.orderId, orderType: 'RENT', lines: [{ lineId: randomUUID(), productID: p.id, productVariantID: null, productSubVariantID: null, productName: p.name, quantity: 1, serialCodes: [code!] }] });
    expect((await availability(p, { from: addDays(today(), 3), to: addDays(today(), 3) })).days[0]!.free).toBe(0);
    await returnSerial(em(), { orderId: a.orderId, serialCode: code!, status: 'OK' });
    // Back today: taken today (turnaround), free from tomorrow.
    expect(await bookingsOf(a.orderId)).toEqual([expect.objectContaining({ start: today(), due: today(), end: addDays(today(), 1), status: 'ACTIVE' })]);
    const avail = await availability(p, { from: today(), to: addDays(today(), 3) });
    expect(avail.days.map((d) => d.free)).toEqual([0, 1, 1, 1]);
  });

  it('an overdue unit stays taken day by day until it is back; the calendar shows it overdue', async () => {
    const p = await rentable();
    const [code] = await addStock(p.id, 1);
    const a = await rent([{ productID: p.id, quantity: 1, days: 2 }]);
    await assignSerials(em(), { orderId: a.orderId, orderType: 'RENT', lines: [{ lineId: randomUUID(), productID: p.id, productVariantID: null, productSubVariantID: null, productName: p.name, quantity: 1, serialCodes: [code!] }] });
    // Five days later it is still out: due two days after the start, so three days overdue.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(Date.now() + 5 * 86_400_000) });
    const now = manilaDate();
    const avail = await availability(p, { from: now, to: addDays(now, 2) });
    // Taken today, and tomorrow for its turnaround after a return tomorrow at the earliest.
    expect(avail.days.map((d) => d.free)).toEqual([0, 0, 1]);
    const cal = await h.api.get(`/api/products/${p.id}/calendar?from=${addDays(now, -7)}&to=${now}`, { as: h.staff });
    expect(cal.status).toBe(200);
    expect(cal.body.units[0].bookings).toEqual([expect.objectContaining({ kind: 'RENTAL', overdue: true, start: addDays(now, -5), end: addDays(now, 2) })]);
    // A rental that would need the unit tomorrow is refused.
    expect((await rent([{ productID: p.id, quantity: 1, startDate: addDays(now, 1) }])).ok).toBe(false);
  });
});

describe('delivered on another day than booked', () => {
  it('the booking moves to the delivered day keeping its length, where the unit is free; else it stays (and the later booking shows at risk)', async () => {
    const p = await rentable();
    const [c1, c2] = await addStock(p.id, 2);
    const a = await rent([{ productID: p.id, quantity: 1, startDate: addDays(today(), 2), days: 3 }]); // c1 [2, 6)
    const b = await rent([{ productID: p.id, quantity: 1, startDate: addDays(today(), 2), days: 1 }]); // c2 [2, 4)
    const c = await rent([{ productID: p.id, quantity: 1, startDate: addDays(today(), 6), days: 1 }]); // c1 [6, 8)
    expect((await bookingsOf(c.orderId)).map((x) => x.serial_code)).toEqual([c1]);
    const delivered = (orderId: string, day: number) =>
      handleOrderEvents(em(), [
        {
          ...eventEnvelope('test', {
            type: EVENTS.order.statusChanged,
            aggregateId: orderId,
            data: { orderId, orderNumber: 'ORD-X', customerId: randomUUID(), type: 'RENT', from: 'OUT_FOR_DELIVERY', to: 'DELIVERED', by: null },
          }),
          occurredAt: new Date(Date.parse(`${addDays(today(), day)}T04:00:00Z`)).toISOString(),
        },
      ]);
    // B delivered a day late: its unit is free, so its days move ([3, 5), due on the 4th).
    await delivered(b.orderId, 3);
    expect(await bookingsOf(b.orderId)).toEqual([expect.objectContaining({ serial_code: c2, start: addDays(today(), 3), due: addDays(today(), 4), end: addDays(today(), 5) })]);
    // A delivered a day late would run into C's booking of the same unit: it stays.
    await delivered(a.orderId, 3);
    expect(await bookingsOf(a.orderId)).toEqual([expect.objectContaining({ serial_code: c1, start: addDays(today(), 2), end: addDays(today(), 6) })]);
    expect(await noOverlaps()).toBe(0);
  });
});

describe('bookings at risk', () => {
  it('a later booking of a unit still out past its due date is listed, with another free unit to pack instead', async () => {
    const p = await rentable();
    const [c1] = await addStock(p.id, 2);
    const a = await rent([{ productID: p.id, quantity: 1, days: 2 }]);
    await assignSerials(em(), { orderId: a.orderId, orderType: 'RENT', lines: [{ lineId: randomUUID(), productID: p.id, productVariantID: null, productSubVariantID: null, productName: p.name, quantity: 1, serialCodes: [c1!] }] });
    // Both units booked from the 6th: c1 is due back on the 2nd, so this is fine for now.
    const start = addDays(today(), 6);
    const b = await rent([{ productID: p.id, quantity: 2, startDate: start, days: 1 }]);
    expect(b.ok).toBe(true);
    // The placed events name the orders' customers (B's is the harness's customer).
    await labelBookings(em(), [
      { orderId: a.orderId, orderNumber: 'ORD-A', customerId: randomUUID(), customerName: 'A' },
      { orderId: b.orderId, orderNumber: 'ORD-B', customerId: h.customer.userId, customerName: 'B' },
    ]);
    const atRisk = async () => {
      const res = await h.api.get('/api/bookings/at-risk', { as: h.staff });
      expect(res.status).toBe(200);
      return (res.body.items as Array<{ productID: string; orderID: string; serialCode: string; suggestion: { serialCode: string } | null; overdueSince: string }>).filter((x) => x.productID === p.id);
    };
    expect(await atRisk()).toEqual([]);
    // Six days on, c1 is still out (four days overdue): B's booking of c1 is at risk; no other unit is free then.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(Date.now() + 6 * 86_400_000) });
    expect(await atRisk()).toEqual([expect.objectContaining({ orderID: b.orderId, serialCode: c1, overdueSince: addDays(start, -4), suggestion: null })]);
    // A new unit arrives: it is suggested.
    vi.useRealTimers();
    const [c3] = await addStock(p.id, 1);
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(Date.now() + 6 * 86_400_000) });
    // The other unit is B's those days, so never the suggestion; the new c3 is.
    expect(await atRisk()).toEqual([expect.objectContaining({ serialCode: c1, suggestion: { stockItemID: expect.any(String), serialCode: c3 } })]);
    // B's customer is told (their notice names neither the other order nor the unit); A's customer, or anyone else, is not.
    const mine = await h.api.get('/api/my/booking-notices', { as: h.customer });
    expect(mine.status).toBe(200);
    expect(mine.body.items).toEqual([{ kind: 'AT_RISK', orderID: b.orderId, orderNumber: 'ORD-B', orderType: 'RENT', message: BOOKING_MESSAGES.atRiskNotice(p.name, start) }]);
    expect((await h.api.get('/api/my/booking-notices', { as: { userId: randomUUID(), userType: 'CUSTOMER' } })).body.items).toEqual([]);
    expect((await h.api.get('/api/my/booking-notices', { as: h.staff })).status).toBe(403);
    expect((await h.api.get('/api/bookings/at-risk', { as: h.customer })).status).toBe(403);
  });
});

describe('downtime', () => {
  it('staff block a unit for days with a reason; it counts like a booking; a unit booked then is refused; removing it frees the days', async () => {
    const p = await rentable();
    const [c1, c2] = await addStock(p.id, 2);
    const s = addDays(today(), 5);
    const cal0 = await h.api.get(`/api/products/${p.id}/calendar?from=${today()}&to=${addDays(today(), 14)}`, { as: h.staff });
    const unit = (code: string) => cal0.body.units.find((u: { serialCode: string }) => u.serialCode === code).stockItemID as string;
    const down = await h.api.post('/api/downtime', { stockItemID: unit(c1!), from: s, to: addDays(s, 2), reason: 'REPAIR', note: 'wheel' }, { as: h.staff });
    expect(down.status, JSON.stringify(down.body)).toBe(201);
    expect(down.body.message).toBe(BOOKING_MESSAGES.downtimeCreated(1));
    const avail = await availability(p, { from: addDays(s, -1), to: addDays(s, 3) });
    expect(avail.days.map((d) => d.free)).toEqual([2, 1, 1, 1, 2]);
    // Both units for those days: refused. One unit: the other one is booked.
    expect((await rent([{ productID: p.id, quantity: 2, startDate: s }])).ok).toBe(false);
    const r = await rent([{ productID: p.id, quantity: 1, startDate: s }]);
    expect(r.ok).toBe(true);
    expect((await bookingsOf(r.orderId)).map((b) => b.serial_code)).toEqual([c2]);
    // Blocking the booked unit on those days is refused, naming it; nothing is written.
    const clash = await h.api.post('/api/downtime', { productID: p.id, from: s, to: s, reason: 'MAINTENANCE' }, { as: h.staff });
    expect(clash.status).toBe(409);
    expect(clash.body.detail).toBe(BOOKING_MESSAGES.downtimeOverlaps(c1!));
    // Only staff may block; customers may not see the calendar.
    expect((await h.api.post('/api/downtime', { stockItemID: unit(c2!), from: s, to: s, reason: 'REPAIR' }, { as: h.customer })).status).toBe(403);
    expect((await h.api.get(`/api/products/${p.id}/calendar?from=${s}&to=${s}`, { as: h.customer })).status).toBe(403);
    const removed = await h.api.del(`/api/downtime/${down.body.downtime[0].id}`, { as: h.staff });
    expect(removed.status).toBe(204);
    expect((await h.api.del(`/api/downtime/${down.body.downtime[0].id}`, { as: h.staff })).status).toBe(404);
    expect((await availability(p, { from: s, to: s })).days[0]!.free).toBe(1);
  });

  it('a level: every unit of a variant blocked at once; a purchase product cannot be blocked', async () => {
    const chair = (await h.api.post('/api/products', wheelchair({ variants: [{ name: 'Folding', price: '9.00', damageCharges: '50.00' }, { name: 'Rigid', price: '11.00', damageCharges: '60.00' }] }), { as: h.staff })).body.product as Product;
    await addStock(chair.id, 2, { productVariantID: chair.variants[0]!.id });
    await addStock(chair.id, 1, { productVariantID: chair.variants[1]!.id });
    const s = addDays(today(), 20);
    const down = await h.api.post('/api/downtime', { productID: chair.id, variantID: chair.variants[0]!.id, from: s, to: s, reason: 'MAINTENANCE' }, { as: h.staff });
    expect(down.status).toBe(201);
    expect(down.body.downtime).toHaveLength(2);
    expect((await availability(chair, { from: s, to: s })).days[0]!.free).toBe(1);
    const sale = (await h.api.post('/api/products', simpleProduct({ type: 'FOR_SALE' }), { as: h.staff })).body.product as Product;
    const refused = await h.api.post('/api/downtime', { productID: sale.id, from: s, to: s, reason: 'MISSING' }, { as: h.staff });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(BOOKING_MESSAGES.downtimeRentOnly);
  });
});
