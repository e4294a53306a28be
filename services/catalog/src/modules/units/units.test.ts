import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  canTakeStep,
  EVENTS,
  manilaDate,
  PACKING_MESSAGES,
  STOCK_STATUS_INVENTORY,
  STOCK_STATUS_LABELS,
  STOCK_STATUSES,
  UNIT_MESSAGES,
  UNIT_STEP_NAMES,
  UNIT_STEPS,
  type StockStatus,
  type UnitStep,
} from '@dme/contracts';
import { connectNats, createLogger, ensureEventStream, eventEnvelope, type RunningConsumer } from '@dme/platform';
import { eventually, testNatsUrl, type Json } from '@dme/testing';
import { leaf, ledger, recount } from '@dme/testing/ledger';
import { placedEvent, rental, statusEvent } from '@dme/testing/order-events';
import { simpleProduct, startCatalog, type CatalogHarness } from '../../test/harness';
import { handleOrderEvents, startOrderConsumer } from '../../consumers/orders';
import { reserve } from '../reservations/reservation.service';
import { packable, rentOut } from '../../test/units';
import { assignSerials } from '../stock/packing.service';
import { returnSerial } from '../stock/returns.service';

let h: CatalogHarness;
let binId: string;
let shelfId: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'Returns', description: 'dock' }, { as: h.staff })).body.bin.id;
  shelfId = (await h.api.post('/api/warehouse-bins', { name: 'Shelf A', description: 'clean stock' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
const CHECKLIST = ['Filter replaced', 'Alarm tested'];
const staff = { userId: randomUUID(), username: 'wendy' };

/** A rental product with an inspection checklist and `n` units in the returns bin; answers the product and the codes. */
async function stocked(n: number, checklist: string[] = CHECKLIST, extra: Json = {}) {
  const product = (await h.api.post('/api/products', simpleProduct({ type: 'FOR_RENT', inspectionChecklist: checklist, ...extra }), { as: h.staff })).body.product;
  expect(product.inspectionChecklist).toEqual(checklist);
  const res = await h.api.post('/api/stocks', { productID: product.id, warehouseBinID: binId, quantity: n }, { as: h.staff });
  expect(res.status).toBe(201);
  return { product, codes: res.body.items.map((i: Json) => i.serialCode as string) };
}

/** A rental of `codes` packed (by `staff`) and out with the customer; answers the order id. */
const rentedOut = (product: Json, codes: string[], orderId?: string) => rentOut(em, product as { id: string; name: string }, codes, staff, orderId);

const step = (code: string, body: Json) => h.api.post(`/api/units/${code}/steps`, body, { as: h.staff });
const unit = async (code: string) => (await h.api.get(`/api/units/${code}`, { as: h.staff })).body;
const statusOf = async (code: string) => (await em().execute<Array<{ status: string }>>(`select status from catalog.stock_items where serial_code = ?`, [code]))[0]!.status;
const check = (product: Json, code: string) => packable(em, product as { id: string; name: string }, code);

describe('a unit between rentals (issue 26)', () => {
  it('an OK return is RETURNED, not packable; cleaned, inspected against the checklist and put away it is AVAILABLE again, in its new bin', async () => {
    const { product, codes } = await stocked(1);
    const [code] = codes as [string];
    const orderId = await rentedOut(product, [code]);
    await returnSerial(em(), { orderId, serialCode: code, status: 'OK', by: staff });
    expect(await statusOf(code)).toBe('RETURNED');
    expect(await check(product, code)).toBe(PACKING_MESSAGES.notAvailable(code, 'RETURNED'));
    expect(PACKING_MESSAGES.notAvailable(code, 'RETURNED')).toBe(`${code} is not available: it is returned (to clean).`);

    const before = await unit(code);
    expect(before.unit).toMatchObject({ status: 'RETURNED', nextStep: 'CLEAN', steps: ['CLEAN', 'HOLD'], checklist: CHECKLIST, service: null });
    // Not before it is cleaned.
    const early = await step(code, { step: 'INSPECT', checklist: CHECKLIST.map((point) => ({ point, ok: true })) });
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe(UNIT_MESSAGES.cannot(code, 'returned (to clean)', 'Inspect'));

    const cleaned = await step(code, { step: 'CLEAN', note: 'Wiped, disinfected' });
    expect(cleaned.status, JSON.stringify(cleaned.body)).toBe(200);
    expect(cleaned.body.message).toBe(UNIT_MESSAGES.done(code, 'cleaned (to inspect)'));
    expect(await check(product, code)).toBe(PACKING_MESSAGES.notAvailable(code, 'CLEANED'));

    // Every point answered, once: else 400 and nothing changes.
    for (const checklist of [[], [{ point: 'Filter replaced', ok: true }], [...CHECKLIST.map((point) => ({ point, ok: true })), { point: 'Wheels oiled', ok: true }]]) {
      const res = await step(code, { step: 'INSPECT', checklist });
      expect(res.status, JSON.stringify(checklist)).toBe(400);
    }
    expect(await statusOf(code)).toBe('CLEANED');
    const inspected = await step(code, { step: 'INSPECT', checklist: [{ point: 'alarm tested', ok: true }, { point: 'Filter replaced', ok: true }] });
    expect(inspected.status, JSON.stringify(inspected.body)).toBe(200);
    expect(inspected.body.unit.status).toBe('INSPECTED');

    const noBin = await step(code, { step: 'PUT_AWAY' });
    expect(noBin.status).toBe(400);
    expect(noBin.body.errors).toEqual([{ field: 'warehouseBinID', message: UNIT_MESSAGES.binRequired }]);
    const away = await step(code, { step: 'PUT_AWAY', warehouseBinID: shelfId });
    expect(away.status).toBe(200);
    expect(away.body.unit).toMatchObject({ status: 'AVAILABLE', warehouseBin: { id: shelfId, name: 'Shelf A' }, nextStep: null, steps: ['HOLD'] });
    expect(await check(product, code)).toBe('ok');
    expect(await ledger(em(), [product.id])).toEqual(await recount(em(), [product.id]));

    // Its history: every step once, in order, with who, where and how.
    expect(away.body.history.map((e: Json) => [e.kind, e.status, e.by, e.bin])).toEqual([
      ['STOCKED', 'AVAILABLE', 'tester', 'Returns'],
      ['PACKED', 'RENTED', 'wendy', 'Returns'],
      ['RETURNED', 'RETURNED', 'wendy', 'Returns'],
      ['CLEANED', 'CLEANED', expect.any(String), 'Returns'],
      ['INSPECTED', 'INSPECTED', expect.any(String), 'Returns'],
      ['PUT_AWAY', 'AVAILABLE', expect.any(String), 'Shelf A'],
    ]);
    const entries = away.body.history as Json[];
    expect(entries[2]).toMatchObject({ condition: 'OK' });
    expect(entries[3]).toMatchObject({ note: 'Wiped, disinfected' });
    expect(entries[4]).toMatchObject({ condition: 'PASSED', checklist: CHECKLIST.map((point) => ({ point, ok: true })) });
  });

  it('a failed point sends the unit to repair; the work order closes as repaired (back in service) or scrapped', async () => {
    const { product, codes } = await stocked(2);
    const [a, b] = codes as [string, string];
    const orderId = await rentedOut(product, [a, b]);
    for (const code of [a, b]) {
      await returnSerial(em(), { orderId, serialCode: code, status: 'OK', by: staff });
      expect((await step(code, { step: 'CLEAN' })).status).toBe(200);
      const res = await step(code, { step: 'INSPECT', checklist: [{ point: 'Filter replaced', ok: true }, { point: 'Alarm tested', ok: false }] });
      expect(res.body.unit).toMatchObject({ status: 'DAMAGED', nextStep: 'OPEN_REPAIR' });
      expect(res.body.history.at(-1)).toMatchObject({ kind: 'INSPECTED', condition: 'FAILED', status: 'DAMAGED' });
      const noFault = await step(code, { step: 'OPEN_REPAIR' });
      expect(noFault.status).toBe(400);
      expect(noFault.body.detail).toBe(UNIT_MESSAGES.faultRequired);
      const opened = await step(code, { step: 'OPEN_REPAIR', fault: 'Alarm silent' });
      expect(opened.body.unit).toMatchObject({ status: 'IN_REPAIR', repair: { fault: 'Alarm silent', outcome: null, openedBy: expect.any(String) } });
      expect(await check(product, code)).toBe(PACKING_MESSAGES.notAvailable(code, 'IN_REPAIR'));
    }
    expect((await step(a, { step: 'CLOSE_REPAIR' })).body.detail).toBe(UNIT_MESSAGES.outcomeRequired);
    const fixed = await step(a, { step: 'CLOSE_REPAIR', outcome: 'REPAIRED', parts: 'Buzzer', cost: '120.50', technician: 'Ramon' });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.unit).toMatchObject({ status: 'AVAILABLE', repair: null, repairs: [{ outcome: 'REPAIRED', cost: '120.50', parts: 'Buzzer', technician: 'Ramon', closedAt: expect.any(String) }] });
    const scrapped = await step(b, { step: 'CLOSE_REPAIR', outcome: 'SCRAPPED', note: 'Board burnt' });
    expect(scrapped.body.unit).toMatchObject({ status: 'SCRAPPED', steps: [], repairs: [{ outcome: 'SCRAPPED' }] });
    expect(scrapped.body.history.at(-1)).toMatchObject({ kind: 'SCRAPPED', condition: 'SCRAPPED', note: 'Board burnt' });
    const [level] = [...(await ledger(em(), [product.id])).values()];
    expect(level).toEqual(leaf({ quantity: 2, available: 1, scrapped: 1 }));
    const counts = (await h.api.get(`/api/admin/products/${product.id}`, { as: h.staff })).body.product;
    // The repaired unit is back on the shelf, but today is its return's turnaround day (booked): none to order today.
    expect(counts).toMatchObject({ quantity: 2, availableQuantity: 0, retiredQuantity: 1, repairQuantity: 0, servicingQuantity: 0 });
  });

  it('from every status, every step is taken exactly when the table allows it; a refused one is a 409 naming the status and changes nothing', async () => {
    const pairs = STOCK_STATUSES.flatMap((status) => UNIT_STEP_NAMES.map((s) => ({ status, step: s })));
    const { codes } = await stocked(pairs.length, [], { maintenance: { everyDays: 365, checklist: [] } });
    const inputs: Record<UnitStep, Json> = {
      CLEAN: {},
      INSPECT: { checklist: [] },
      PUT_AWAY: { warehouseBinID: shelfId },
      OPEN_REPAIR: { fault: 'Wobbles' },
      CLOSE_REPAIR: { outcome: 'REPAIRED' },
      HOLD: { note: 'Recall 2026-14' },
      RELEASE: {},
      SCRAP: { note: 'Beyond repair' },
      FOUND: {},
      WRITE_OFF: { note: 'Never found' },
      SERVICE: { checklist: [] },
    };
    for (const [k, { status, step: s }] of pairs.entries()) {
      const code = codes[k]!;
      await em().execute(`update catalog.stock_items set status = ?, inventory_type = ? where serial_code = ?`, [status, STOCK_STATUS_INVENTORY[status], code]);
      const res = await step(code, { step: s, ...inputs[s] });
      if (canTakeStep(status, s)) {
        expect(res.status, `${status} ${s}: ${JSON.stringify(res.body)}`).toBe(200);
      } else {
        expect(res.status, `${status} ${s}`).toBe(409);
        expect(res.body.detail).toBe(UNIT_MESSAGES.cannot(code, STOCK_STATUS_LABELS[status as StockStatus].toLowerCase(), UNIT_STEPS[s].label));
        expect(await statusOf(code), `${status} ${s}`).toBe(status);
      }
    }
  });

  it('hold and release: a held unit is not packable; released it goes back to be cleaned and inspected; a note says why', async () => {
    const { product, codes } = await stocked(1);
    const [code] = codes as [string];
    const noNote = await step(code, { step: 'HOLD' });
    expect(noNote.status).toBe(400);
    expect(noNote.body.errors).toEqual([{ field: 'note', message: UNIT_MESSAGES.noteRequired }]);
    expect((await step(code, { step: 'HOLD', note: 'Quarantine: visitor sick' })).body.unit.status).toBe('ON_HOLD');
    expect(await check(product, code)).toBe(`${code} is not available: it is on hold.`);
    expect((await step(code, { step: 'RELEASE' })).body.unit).toMatchObject({ status: 'RETURNED', nextStep: 'CLEAN' });
  });

  it('a lost unit found goes to be cleaned (in the bin it is found in); one written off is gone', async () => {
    const { product, codes } = await stocked(2);
    const [a, b] = codes as [string, string];
    const orderId = await rentedOut(product, [a, b]);
    for (const code of [a, b]) await returnSerial(em(), { orderId, serialCode: code, status: 'LOST', by: staff });
    const found = await step(a, { step: 'FOUND', warehouseBinID: shelfId, note: 'Left at the clinic' });
    expect(found.body.unit).toMatchObject({ status: 'FOUND', nextStep: 'CLEAN', inventoryType: 'IN', warehouseBin: { name: 'Shelf A' } });
    expect((await step(b, { step: 'WRITE_OFF', note: 'Police report 77' })).body.unit).toMatchObject({ status: 'WRITTEN_OFF', inventoryType: 'OUT', steps: [] });
    expect(await ledger(em(), [product.id])).toEqual(await recount(em(), [product.id]));
  });

  it('the board lists units by column, oldest first, with counts; search by code or product; staff only for steps', async () => {
    const { product, codes } = await stocked(3);
    const orderId = await rentedOut(product, codes);
    for (const code of codes) await returnSerial(em(), { orderId, serialCode: code, status: 'OK', by: staff });
    await step(codes[2]!, { step: 'CLEAN' });
    const board = (await h.api.get(`/api/units?column=TO_CLEAN&search=${encodeURIComponent(product.name)}`, { as: h.staff })).body;
    expect(board.items.map((u: Json) => u.serialCode)).toEqual([codes[0], codes[1]]);
    expect(board.total).toBe(2);
    expect(board.counts.TO_CLEAN).toBeGreaterThanOrEqual(2);
    expect(board.counts.TO_INSPECT).toBeGreaterThanOrEqual(1);
    const byCode = (await h.api.get(`/api/units?search=${codes[2]}`, { as: h.staff })).body;
    expect(byCode.items.map((u: Json) => [u.serialCode, u.status, u.nextStep])).toEqual([[codes[2], 'CLEANED', 'INSPECT']]);
    expect((await h.api.post(`/api/units/${codes[0]}/steps`, { step: 'CLEAN' }, { as: h.customer })).status).toBe(403);
    expect((await h.api.get(`/api/units/${codes[0]}`, { as: h.customer })).status).toBe(403);
    expect((await h.api.get('/api/units/NOPE-0000000', { as: h.staff })).status).toBe(404);
    expect((await step('NOPE-0000000', { step: 'CLEAN' })).status).toBe(404);
  });

  it('a unit booked ahead that goes out of service puts its booking at risk, with another unit to pack; the customer is not told', async () => {
    const { product, codes } = await stocked(2);
    const start = addDays(manilaDate(), 5);
    const orderId = randomUUID();
    const customerId = randomUUID();
    await reserve(em(), { orderId, orderType: 'RENT', lines: [{ ref: 0, productID: product.id, productVariantID: null, productSubVariantID: null, quantity: 1, noOfRentalDays: 2, startDate: start }] });
    await em().execute(`update catalog.bookings set customer_id = ? where order_id = ?`, [customerId, orderId]);
    const [booked] = await em().execute<Array<{ serial_code: string }>>(
      `select i.serial_code from catalog.bookings b join catalog.stock_items i on i.id = b.stock_item_id where b.order_id = ? and b.status = 'ACTIVE'`,
      [orderId],
    );
    const other = codes.find((c: string) => c !== booked!.serial_code)!;
    const before = (await h.api.get('/api/bookings/at-risk', { as: h.staff })).body.items.filter((r: Json) => r.orderID === orderId);
    expect(before).toEqual([]);
    expect((await step(booked!.serial_code, { step: 'HOLD', note: 'Recall 2026-14' })).status).toBe(200);
    const risks = (await h.api.get('/api/bookings/at-risk', { as: h.staff })).body.items.filter((r: Json) => r.orderID === orderId);
    expect(risks).toEqual([
      expect.objectContaining({ serialCode: booked!.serial_code, start, reason: 'OUT_OF_SERVICE', unitStatus: 'ON_HOLD', overdueOrderNumber: null, suggestion: { stockItemID: expect.any(String), serialCode: other } }),
    ]);
    expect((await h.api.get('/api/my/booking-notices', { as: { userId: customerId, userType: 'CUSTOMER' } })).body.items).toEqual([]);
    // Released, it is on its way back to the shelf: it can serve that later rental again.
    await step(booked!.serial_code, { step: 'RELEASE' });
    expect((await h.api.get('/api/bookings/at-risk', { as: h.staff })).body.items.filter((r: Json) => r.orderID === orderId)).toEqual([]);
  });

  it('the database keeps the chain of custody append-only', async () => {
    const { codes } = await stocked(1);
    const [entry] = await em().execute<Array<{ id: string }>>(`select c.id from catalog.custody_events c join catalog.stock_items i on i.id = c.stock_item_id where i.serial_code = ?`, [codes[0]]);
    await expect(em().execute(`update catalog.custody_events set note = 'forged' where id = ?`, [entry!.id])).rejects.toThrow(/append-only/);
    await expect(em().execute(`delete from catalog.custody_events where id = ?`, [entry!.id])).rejects.toThrow(/append-only/);
  });
});

describe('the chain of custody through a whole rental (issue 26)', () => {
  it('reserved, packed, out, delivered, picked up, returned, cleaned, inspected: every step once, in order, each event handled twice', async () => {
    const run = randomUUID().slice(0, 8);
    const nc = await connectNats(testNatsUrl(), `catalog-custody-${run}`);
    let consumer: RunningConsumer | undefined;
    try {
      await ensureEventStream(nc);
      const durable = `catalog-orders-custody-${run}`;
      consumer = await startOrderConsumer({ nc, em: h.orm.em, logger: createLogger('catalog-test', 'silent'), durable });
      const { product, codes } = await stocked(1, []);
      const [code] = codes as [string];
      const order = rental({ customer: { name: 'Jose Rizal', email: 'jose@example.com', contactNumber: '+63 918 222 3344' } });
      const handled = async (id: string) => (await em().execute(`select 1 from catalog.inbox where consumer = ? and event_id = ?`, [durable, id])).length > 0;
      // Each event published twice (a redelivery, past the stream's dedupe: no message id).
      const twice = async (e: ReturnType<typeof placedEvent>) => {
        nc.publish(e.type, JSON.stringify(e));
        nc.publish(e.type, JSON.stringify(e));
        await eventually(() => handled(e.id), 20_000);
      };
      // Checkout books the unit, then the order is placed (its event), then packed.
      await reserve(em(), { orderId: order.orderId, orderType: 'RENT', lines: [{ ref: 0, productID: product.id, productVariantID: null, productSubVariantID: null, quantity: 1, noOfRentalDays: 3 }] });
      await twice(placedEvent(order));
      await assignSerials(em(), {
        orderId: order.orderId,
        orderType: 'RENT',
        by: staff,
        lines: [{ lineId: randomUUID(), productID: product.id, productVariantID: null, productSubVariantID: null, productName: product.name, quantity: 1, serialCodes: [code] }],
      });
      const driverStep = (from: Parameters<typeof statusEvent>[1], to: Parameters<typeof statusEvent>[2]) => {
        const e = statusEvent(order, from, to);
        return { ...e, data: { ...(e.data as Json), byName: 'dan-driver' } } as typeof e;
      };
      await twice(driverStep('TO_SHIP', 'OUT_FOR_DELIVERY'));
      await twice(driverStep('OUT_FOR_DELIVERY', 'DELIVERED'));
      await twice(driverStep('FOR_RETURN', 'FOR_PICK_UP'));
      await returnSerial(em(), { orderId: order.orderId, serialCode: code, status: 'OK', by: staff });
      await step(code, { step: 'CLEAN' });
      await step(code, { step: 'INSPECT', checklist: [] });

      const history = (await unit(code)).history as Json[];
      expect(history.map((e) => e.kind)).toEqual(['STOCKED', 'RESERVED', 'PACKED', 'OUT_FOR_DELIVERY', 'DELIVERED', 'PICKED_UP', 'RETURNED', 'CLEANED', 'INSPECTED']);
      expect(history.slice(1, 7).map((e) => [e.orderNumber, e.by, e.party])).toEqual([
        [order.orderNumber, null, 'Jose Rizal'],
        [order.orderNumber, 'wendy', null],
        [order.orderNumber, 'dan-driver', 'dan-driver'],
        [order.orderNumber, 'dan-driver', 'Jose Rizal'],
        [order.orderNumber, 'dan-driver', 'dan-driver'],
        [order.orderNumber, 'wendy', 'Jose Rizal'],
      ]);
      const times = history.map((e) => Date.parse(e.at));
      expect([...times].sort((x, y) => x - y)).toEqual(times);

      // The order's custody export names the same steps.
      const csv = await h.api.get(`/api/custody/orders/${order.orderId}?format=csv`, { as: h.staff });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(String(csv.text).trim().split('\r\n').slice(1).map((l: string) => l.split(',')[2])).toEqual([
        'Stocked', 'Reserved for an order', 'Packed for an order', 'Out for delivery', 'Delivered', 'Picked up', 'Returned', 'Cleaned', 'Inspected',
      ]);
      // An event another service sends later for another order does not touch this unit's history.
      await twice(eventEnvelope('order', { type: EVENTS.order.checkoutAbandoned, aggregateId: randomUUID(), data: { orderId: randomUUID() } }) as ReturnType<typeof placedEvent>);
      expect(((await unit(code)).history as Json[]).length).toBe(9);
    } finally {
      await consumer?.stop();
      await nc.drain();
    }
  }, 60_000);

  it('a pick-up whose event arrives after the unit was marked back still gets its entry, at its time, before the return; a unit back before the pick-up gets none', async () => {
    const { product, codes } = await stocked(2, []);
    const [late, early] = codes as [string, string];
    const order = rental();
    await rentedOut(product, [late, early], order.orderId);
    const kinds = async (code: string) => ((await unit(code)).history as Json[]).map((e) => e.kind);
    const pause = () => new Promise((r) => setTimeout(r, 50));
    // One unit came back before the pick-up (replaced, say); the driver then picks up the other,
    // and the warehouse marks it back before the pick-up's event has reached the catalog.
    await returnSerial(em(), { orderId: order.orderId, serialCode: early, status: 'OK', by: staff });
    await pause();
    const pickedUp = statusEvent(order, 'FOR_RETURN', 'FOR_PICK_UP', { at: new Date().toISOString() });
    await pause();
    await returnSerial(em(), { orderId: order.orderId, serialCode: late, status: 'OK', by: staff });
    await handleOrderEvents(em(), [pickedUp]);
    await handleOrderEvents(em(), [pickedUp]);

    expect(await kinds(late)).toEqual(['STOCKED', 'PACKED', 'PICKED_UP', 'RETURNED']);
    expect(await kinds(early)).toEqual(['STOCKED', 'PACKED', 'RETURNED']);
  });
});
