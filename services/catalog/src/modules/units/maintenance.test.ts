import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, manilaDate, UNIT_MESSAGES } from '@dme/contracts';
import { HttpProblem } from '@dme/platform';
import type { Json } from '@dme/testing';
import { simpleProduct, startCatalog, type CatalogHarness } from '../../test/harness';
import { reserve, release } from '../reservations/reservation.service';
import { extendBookings } from '../bookings/extend';

/**
 * Preventive maintenance (issue 26): a rental product's plan (every N rental days and/or every M
 * calendar days since a unit's last service); the server computes when each unit falls due from
 * its real rental days, offers no unit for a rental it would fall due in, lists due units on the
 * board, and a service done resets the count.
 */
let h: CatalogHarness;
let binId: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'Service', description: 'bin' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
const today = manilaDate();

/** A rental product with a maintenance plan and one unit, serviced `servicedDaysAgo` days ago. */
async function unitWithPlan(maintenance: Json, servicedDaysAgo: number) {
  const product = (await h.api.post('/api/products', simpleProduct({ type: 'FOR_RENT', turnaroundDays: 1, maintenance }), { as: h.staff })).body.product;
  expect(product.maintenance).toEqual({ everyRentalDays: null, everyDays: null, checklist: [], ...maintenance });
  const stock = await h.api.post('/api/stocks', { productID: product.id, warehouseBinID: binId, quantity: 1 }, { as: h.staff });
  const [unit] = stock.body.items as Array<{ id: string; serialCode: string }>;
  await em().execute(`update catalog.stock_items set serviced_on = ?::date where id = ?`, [addDays(today, -servicedDaysAgo), unit!.id]);
  return { product, unit: unit! };
}

/** A rental of `days` days of the product from `start`: its order id, or the refusal's status. */
async function book(productId: string, start: string, days: number): Promise<{ orderId: string } | { status: number }> {
  const orderId = randomUUID();
  try {
    await reserve(em(), { orderId, orderType: 'RENT', lines: [{ ref: 0, productID: productId, productVariantID: null, productSubVariantID: null, quantity: 1, startDate: start, noOfRentalDays: days }] });
    return { orderId };
  } catch (err) {
    if (err instanceof HttpProblem) return { status: err.status };
    throw err;
  }
}

const unitView = async (code: string) => (await h.api.get(`/api/units/${code}`, { as: h.staff })).body.unit;
const startable = async (productId: string, days: number) =>
  (await h.api.get(`/api/products/${productId}/availability?from=${today}&to=${addDays(today, 3)}&days=${days}`)).body.days[0].startable as boolean;

describe('preventive maintenance (issue 26)', () => {
  it('every 90 rental days: a unit rented 85 days since its service is not offered for 10 more (it would fall due in them), is for 5', async () => {
    const { product, unit } = await unitWithPlan({ everyRentalDays: 90 }, 200);
    // Its earlier rental since the service: 85 days, long back.
    await em().execute(
      `insert into catalog.bookings (id, kind, order_id, stock_item_id, leaf_id, product_id, period, due_date, status)
       values (gen_random_uuid(), 'RENTAL', gen_random_uuid(), ?, ?, ?, daterange(?::date, ?::date), ?::date, 'ACTIVE')`,
      [unit.id, product.id, product.id, addDays(today, -180), addDays(today, -94), addDays(today, -95)],
    );
    expect((await unitView(unit.serialCode)).service).toEqual({ servicedOn: addDays(today, -200), dueOn: null, rentalDaysLeft: 5, due: false });
    expect(await startable(product.id, 10)).toBe(false);
    expect(await startable(product.id, 5)).toBe(true);
    expect(await book(product.id, today, 10)).toEqual({ status: 409 });
    const ok = await book(product.id, today, 5);
    expect(ok).toHaveProperty('orderId');
    // Booked up to its service: no rental day left, so it is due (for after this rental).
    expect((await unitView(unit.serialCode)).service).toMatchObject({ rentalDaysLeft: 0, due: true });
    await release(em(), (ok as { orderId: string }).orderId);
    expect((await unitView(unit.serialCode)).service).toMatchObject({ rentalDaysLeft: 5, due: false });
  });

  it('every 30 days: a unit serviced 28 days ago may be rented up to its due day, not past it; an extension stops there too', async () => {
    const { product, unit } = await unitWithPlan({ everyDays: 30, checklist: ['Filter replaced'] }, 28);
    expect((await unitView(unit.serialCode)).service).toEqual({ servicedOn: addDays(today, -28), dueOn: addDays(today, 2), rentalDaysLeft: null, due: false });
    expect(await book(product.id, today, 3)).toEqual({ status: 409 });
    const ok = (await book(product.id, today, 1)) as { orderId: string };
    expect(ok).toHaveProperty('orderId');
    // One more day fits (due back on its service day), two do not.
    expect(await extendBookings(em(), { orderId: ok.orderId, seq: 1, days: 2 })).toMatchObject({ ok: false, maxDays: 1 });
    expect(await extendBookings(em(), { orderId: ok.orderId, seq: 1, days: 1 })).toMatchObject({ ok: true });
    // Its service may be blocked on the calendar on its due day (a downtime is not a rental).
    const downtime = await h.api.post('/api/downtime', { stockItemID: unit.id, from: addDays(today, 3), to: addDays(today, 3), reason: 'MAINTENANCE', note: 'Filter change' }, { as: h.staff });
    expect(downtime.status, JSON.stringify(downtime.body)).toBe(201);
  });

  it('a due unit is on the board; serviced (every point passed) it counts again from today and can be rented; a failed point sends it to repair', async () => {
    const a = await unitWithPlan({ everyDays: 30, checklist: ['Filter replaced', 'Alarm tested'] }, 31);
    const b = await unitWithPlan({ everyDays: 30, checklist: ['Filter replaced'] }, 40);
    const board = (await h.api.get('/api/units?column=SERVICE_DUE', { as: h.staff })).body;
    const codes = board.items.map((u: Json) => u.serialCode);
    expect(codes).toEqual(expect.arrayContaining([a.unit.serialCode, b.unit.serialCode]));
    expect(board.counts.SERVICE_DUE).toBeGreaterThanOrEqual(2);
    const row = board.items.find((u: Json) => u.serialCode === a.unit.serialCode);
    expect(row).toMatchObject({ status: 'AVAILABLE', nextStep: 'SERVICE', service: { due: true, dueOn: addDays(today, -1) } });
    expect(await book(a.product.id, today, 1)).toEqual({ status: 409 });

    const missing = await h.api.post(`/api/units/${a.unit.serialCode}/steps`, { step: 'SERVICE', checklist: [{ point: 'Filter replaced', ok: true }] }, { as: h.staff });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe(UNIT_MESSAGES.checklistRequired);
    const done = await h.api.post(
      `/api/units/${a.unit.serialCode}/steps`,
      { step: 'SERVICE', checklist: [{ point: 'Filter replaced', ok: true }, { point: 'Alarm tested', ok: true }], note: 'Filter HEPA-2' },
      { as: h.staff },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.message).toBe(UNIT_MESSAGES.serviced(a.unit.serialCode));
    expect(done.body.unit).toMatchObject({ status: 'AVAILABLE', service: { servicedOn: today, dueOn: addDays(today, 30), due: false } });
    expect(done.body.history.at(-1)).toMatchObject({ kind: 'SERVICED', condition: 'PASSED', status: null, note: 'Filter HEPA-2' });
    expect(await book(a.product.id, today, 3)).toHaveProperty('orderId');
    const after = (await h.api.get('/api/units?column=SERVICE_DUE', { as: h.staff })).body.items.map((u: Json) => u.serialCode);
    expect(after).not.toContain(a.unit.serialCode);

    const failed = await h.api.post(`/api/units/${b.unit.serialCode}/steps`, { step: 'SERVICE', checklist: [{ point: 'Filter replaced', ok: false }] }, { as: h.staff });
    expect(failed.body.unit).toMatchObject({ status: 'DAMAGED', nextStep: 'OPEN_REPAIR', service: { servicedOn: addDays(today, -40), due: true } });
    expect(failed.body.history.at(-1)).toMatchObject({ kind: 'SERVICED', condition: 'FAILED', status: 'DAMAGED' });
  });

  it('a product without a plan has no service step, and a service asked all the same is refused', async () => {
    const product = (await h.api.post('/api/products', simpleProduct({ type: 'FOR_RENT' }), { as: h.staff })).body.product;
    expect(product.maintenance).toBeNull();
    const [unit] = (await h.api.post('/api/stocks', { productID: product.id, warehouseBinID: binId, quantity: 1 }, { as: h.staff })).body.items;
    expect((await unitView(unit.serialCode))).toMatchObject({ steps: ['HOLD'], service: null });
    const res = await h.api.post(`/api/units/${unit.serialCode}/steps`, { step: 'SERVICE', checklist: [] }, { as: h.staff });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(UNIT_MESSAGES.noPlan);
    // A plan needs an interval.
    const bad = await h.api.patch(`/api/products/${product.id}`, { ...simpleProduct({ type: 'FOR_RENT' }), maintenance: { checklist: ['x'] } }, { as: h.staff });
    expect(bad.status).toBe(400);
  });
});
