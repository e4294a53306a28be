import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, ORDER_MESSAGES, type Product } from '@dme/contracts';
import { connectNats, createLogger, ensureEventStream, eventEnvelope, HttpProblem, type NatsConnection, type RunningConsumer } from '@dme/platform';
import { eventually, testNatsUrl } from '@dme/testing';
import { IMAGE, simpleProduct, startCatalog, wheelchair, type CatalogHarness } from '../../test/harness';
import { leaf, ledger, nonZero, recount } from '@dme/testing/ledger';
import { handleOrderEvents, startOrderConsumer } from '../../consumers/orders';
import { confirm, expireHeld, release, reserve, reservationBatcher, reserveOrders } from './reservation.service';

let h: CatalogHarness;
let binId: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'Reservations', description: 'bin' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
const product = async (body: Record<string, unknown>): Promise<Product> => {
  const res = await h.api.post('/api/products', body, { as: h.staff });
  expect(res.status).toBe(201);
  return res.body.product;
};
const addStock = async (body: Record<string, unknown>) => {
  const res = await h.api.post('/api/stocks', { warehouseBinID: binId, ...body }, { as: h.staff });
  expect(res.status).toBe(201);
};
type Line = { ref: number; productID: string; productVariantID?: string | null; productSubVariantID?: string | null; quantity: number };
/** A purchase: the count ledger's orders (a rental books dated units instead, issue 25). */
const buy = (orderId: string, lines: Line[]) => reserve(em(), { orderId, orderType: 'BUY', lines: lines.map((l) => ({ productVariantID: null, productSubVariantID: null, ...l })) });
async function attempt(orderId: string, lines: Line[]) {
  try {
    return { ok: true as const, reply: await buy(orderId, lines) };
  } catch (err) {
    if (err instanceof HttpProblem) return { ok: false as const, status: err.status, detail: err.detail, errors: err.errors };
    throw err;
  }
}
const level = async (leafId: string, productId: string) => (await ledger(em(), [productId])).get(leafId);
async function expectLedgerMatchesRecount(productIds: string[]) {
  expect(nonZero(await ledger(em(), productIds))).toEqual(nonZero(await recount(em(), productIds)));
  const [neg] = await em().execute<Array<{ n: number }>>(`select count(*)::int as n from catalog.stock_levels where available - reserved < 0`);
  expect(neg!.n).toBe(0);
}
const soldOut = (what: string) => `${what} is sold out. ${ORDER_MESSAGES.maxStock}`;

describe('reserve: the reply and the checks of each line', () => {
  it('answers names, image, type and prices per line without loading product trees; a retry answers the same and reserves nothing more', async () => {
    const chair = await product(wheelchair({ type: 'FOR_SALE' }));
    const walker = await product(wheelchair({ type: 'FOR_SALE', variants: [{ name: 'Folding', price: '9.00', damageCharges: '50.00' }, { name: 'Rigid', price: '11.00', damageCharges: '60.00' }] }));
    const cane = await product(simpleProduct());
    const sub = chair.variants[0]!.subVariants[1]!;
    await addStock({ productID: chair.id, productVariantID: chair.variants[0]!.id, productSubVariantID: sub.id, quantity: 3 });
    await addStock({ productID: walker.id, productVariantID: walker.variants[1]!.id, quantity: 3 });
    await addStock({ productID: cane.id, quantity: 3 });
    const orderId = randomUUID();
    const lines: Line[] = [
      { ref: 4, productID: chair.id, productVariantID: chair.variants[0]!.id, productSubVariantID: sub.id, quantity: 1 },
      { ref: 7, productID: walker.id, productVariantID: walker.variants[1]!.id, quantity: 2 },
      { ref: 9, productID: cane.id, quantity: 1 },
      { ref: 11, productID: walker.id, productVariantID: walker.variants[1]!.id, quantity: 1 },
    ];
    const first = await buy(orderId, lines);
    const rigid = { ref: 7, productName: walker.name, productImage: IMAGE, productType: 'FOR_SALE', variantName: 'Rigid', variantPrice: '11.00', subVariantName: null, subVariantPrice: null, unitPrice: '11.00', damageCharges: '60.00', rentalTerms: null };
    expect(first.lines).toEqual([
      { ref: 4, productName: chair.name, productImage: IMAGE, productType: 'FOR_SALE', variantName: 'Standard', variantPrice: null, subVariantName: '18 in', subVariantPrice: '16.50', unitPrice: '16.50', damageCharges: '120.00', rentalTerms: null },
      rigid,
      { ref: 9, productName: cane.name, productImage: IMAGE, productType: 'FOR_SALE', variantName: null, variantPrice: null, subVariantName: null, subVariantPrice: null, unitPrice: '12.99', damageCharges: '0.00', rentalTerms: null },
      { ...rigid, ref: 11 },
    ]);
    expect((await level(walker.variants[1]!.id, walker.id))!.reserved).toBe(3);
    // One reservation row per leaf, holding the lines of that leaf together.
    const rows = await em().execute<Array<{ leaf_id: string; quantity: number; status: string }>>(
      `select leaf_id, quantity, status from catalog.reservations where order_id = ? order by quantity`,
      [orderId],
    );
    expect(rows.map((r) => [r.quantity, r.status])).toEqual([[1, 'HELD'], [1, 'HELD'], [3, 'HELD']]);

    expect(await buy(orderId, lines)).toEqual(first);
    // The same order asked by several callers at once: one reservation.
    expect(await Promise.all(Array.from({ length: 8 }, () => buy(orderId, lines)))).toEqual(Array(8).fill(first));
    expect((await level(walker.variants[1]!.id, walker.id))!.reserved).toBe(3);
    expect((await level(sub.id, chair.id))!.reserved).toBe(1);
    await expectLedgerMatchesRecount([chair.id, walker.id, cane.id]);
  });

  it('refuses a line the product tree does not offer with the same 400 messages and fields as before, reserving nothing', async () => {
    const chair = await product(wheelchair({ type: 'FOR_SALE' }));
    const other = await product(wheelchair({ type: 'FOR_SALE' }));
    const walker = await product(wheelchair({ type: 'FOR_SALE', variants: [{ name: 'Folding', price: '9.00', damageCharges: '50.00' }] }));
    const cane = await product(simpleProduct());
    const thermometer = await product(simpleProduct());
    const rental = await product(simpleProduct({ type: 'FOR_RENT' }));
    const archived = await product(simpleProduct());
    const [std, heavy] = chair.variants;
    await addStock({ productID: chair.id, productVariantID: std!.id, productSubVariantID: std!.subVariants[0]!.id, quantity: 5 });
    await addStock({ productID: walker.id, productVariantID: walker.variants[0]!.id, quantity: 5 });
    await addStock({ productID: cane.id, quantity: 5 });
    await addStock({ productID: thermometer.id, quantity: 5 });
    await addStock({ productID: rental.id, quantity: 5 });
    await addStock({ productID: archived.id, quantity: 5 });
    expect((await h.api.del(`/api/products/${archived.id}`, { as: h.staff })).body.result).toBe('archived');

    const good: Line = { ref: 0, productID: chair.id, productVariantID: std!.id, productSubVariantID: std!.subVariants[0]!.id, quantity: 1 };
    const cases: Array<[Omit<Line, 'ref' | 'quantity'>, string]> = [
      [{ productID: randomUUID() }, ORDER_MESSAGES.unknownProduct],
      [{ productID: archived.id }, ORDER_MESSAGES.unknownProduct],
      [{ productID: rental.id }, ORDER_MESSAGES.wrongType],
      [{ productID: chair.id }, ORDER_MESSAGES.chooseVariant],
      [{ productID: chair.id, productVariantID: other.variants[0]!.id, productSubVariantID: other.variants[0]!.subVariants[0]!.id }, ORDER_MESSAGES.chooseVariant],
      [{ productID: chair.id, productVariantID: std!.id }, ORDER_MESSAGES.chooseSubVariant],
      [{ productID: chair.id, productVariantID: std!.id, productSubVariantID: heavy!.subVariants[0]!.id }, ORDER_MESSAGES.chooseSubVariant],
      [{ productID: walker.id, productVariantID: walker.variants[0]!.id, productSubVariantID: std!.subVariants[0]!.id }, ORDER_MESSAGES.chooseVariant],
      [{ productID: walker.id, productSubVariantID: std!.subVariants[0]!.id }, ORDER_MESSAGES.chooseVariant],
      [{ productID: cane.id, productVariantID: walker.variants[0]!.id }, ORDER_MESSAGES.unknownProduct],
      [{ productID: cane.id, productSubVariantID: std!.subVariants[0]!.id }, ORDER_MESSAGES.unknownProduct],
    ];
    for (const [bad, message] of cases) {
      // The first failing line is named, after a valid line that reserves nothing either.
      const res = await attempt(randomUUID(), [good, { ...bad, ref: 5, quantity: 1 }, { ...bad, ref: 6, quantity: 1 }]);
      expect(res, JSON.stringify(bad)).toEqual({ ok: false, status: 400, detail: message, errors: [{ field: 'lines.5', message }] });
    }
    // A refusal for a wrong type of order (a rental item in a purchase) names the line too; a sale item is taken.
    const sale = await reserve(em(), { orderId: randomUUID(), orderType: 'BUY', lines: [{ ref: 3, productID: thermometer.id, productVariantID: null, productSubVariantID: null, quantity: 2 }] });
    expect(sale.lines[0]!.unitPrice).toBe('12.99');
    const ids = [chair.id, walker.id, cane.id, thermometer.id, rental.id, archived.id];
    const reserved = [...(await ledger(em(), ids)).values()].reduce((a, c) => a + c.reserved, 0);
    expect(reserved).toBe(2);
    await expectLedgerMatchesRecount(ids);
  });

  it('a 409 names the line exactly: sold out, or how many are left', async () => {
    const chair = await product(wheelchair({ type: 'FOR_SALE' }));
    const [std] = chair.variants;
    const sub = std!.subVariants[1]!;
    await addStock({ productID: chair.id, productVariantID: std!.id, productSubVariantID: sub.id, quantity: 2 });
    const line = (quantity: number, ref = 0): Line => ({ ref, productID: chair.id, productVariantID: std!.id, productSubVariantID: sub.id, quantity });
    expect(await attempt(randomUUID(), [line(2), line(1, 1)])).toEqual({
      ok: false,
      status: 409,
      detail: `Only 2 of ${chair.name} / Standard / 18 in left; you asked for 3. ${ORDER_MESSAGES.maxStock}`,
      errors: undefined,
    });
    expect((await attempt(randomUUID(), [line(2)])).ok).toBe(true);
    expect(await attempt(randomUUID(), [line(1)])).toMatchObject({ status: 409, detail: soldOut(`${chair.name} / Standard / 18 in`) });
    const never = std!.subVariants[0]!;
    expect(await attempt(randomUUID(), [{ ...line(1), productSubVariantID: never.id }])).toMatchObject({ status: 409, detail: soldOut(`${chair.name} / Standard / 16 in`) });
    await expectLedgerMatchesRecount([chair.id]);
  });

  it('an archived product keeps its levels (history); the shop hides it, staff still see its counts', async () => {
    const cane = await product(simpleProduct());
    await addStock({ productID: cane.id, quantity: 4 });
    await buy(randomUUID(), [{ ref: 0, productID: cane.id, quantity: 1 }]);
    expect((await h.api.del(`/api/products/${cane.id}`, { as: h.staff })).body.result).toBe('archived');
    expect(await level(cane.id, cane.id)).toEqual(leaf({ quantity: 4, available: 4, rented: 0, damaged: 0, lost: 0, sold: 0, reserved: 1 }));
    expect((await h.api.get(`/api/products?search=${encodeURIComponent(cane.name)}`)).body.items).toEqual([]);
    expect((await h.api.get(`/api/products/${cane.id}`)).status).toBe(404);
    expect((await h.api.get(`/api/admin/products/${cane.id}`, { as: h.staff })).body.product).toMatchObject({ archived: true, quantity: 4, availableQuantity: 3 });
  });
});

describe('reserve under concurrency', () => {
  it('50 concurrent reserves of 1 unit for the last 5: exactly 5 succeed, never negative, never over-reserved — 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const p = await product(wheelchair({ type: 'FOR_SALE', variants: [{ name: 'Only', price: '10.00', damageCharges: '1.00' }] }));
      const variantID = p.variants[0]!.id;
      await addStock({ productID: p.id, productVariantID: variantID, quantity: 5 });
      const results = await Promise.all(Array.from({ length: 50 }, () => attempt(randomUUID(), [{ ref: 0, productID: p.id, productVariantID: variantID, quantity: 1 }])));
      expect(results.filter((r) => r.ok), `round ${round}`).toHaveLength(5);
      for (const r of results.filter((x) => !x.ok)) expect(r).toMatchObject({ status: 409, detail: soldOut(`${p.name} / Only`) });
      expect(await level(variantID, p.id), `round ${round}`).toMatchObject({ available: 5, reserved: 5 });
      await expectLedgerMatchesRecount([p.id]);
    }
  }, 120_000);

  it('carts of several leaves in different orders, random quantities, racing: no deadlock, each leaf holds at most what it has', async () => {
    const a = await product(wheelchair({ type: 'FOR_SALE' }));
    const b = await product(simpleProduct());
    const sa = a.variants[1]!.subVariants[0]!;
    await addStock({ productID: a.id, productVariantID: a.variants[1]!.id, productSubVariantID: sa.id, quantity: 10 });
    await addStock({ productID: b.id, quantity: 10 });
    const lineA = (q: number, ref: number): Line => ({ ref, productID: a.id, productVariantID: a.variants[1]!.id, productSubVariantID: sa.id, quantity: q });
    const lineB = (q: number, ref: number): Line => ({ ref, productID: b.id, quantity: q });
    const carts = Array.from({ length: 40 }, (_, i) => {
      const qa = 1 + (i % 3);
      const qb = 1 + ((i * 7) % 2);
      return { qa, qb, lines: i % 2 ? [lineA(qa, 0), lineB(qb, 1)] : [lineB(qb, 0), lineA(qa, 1)] };
    });
    const results = await Promise.all(carts.map((c) => attempt(randomUUID(), c.lines)));
    for (const r of results) if (!r.ok) expect(r.status).toBe(409);
    const won = carts.filter((_, i) => results[i]!.ok);
    expect(won.length).toBeGreaterThan(0);
    const heldA = won.reduce((s, c) => s + c.qa, 0);
    const heldB = won.reduce((s, c) => s + c.qb, 0);
    expect(heldA).toBeLessThanOrEqual(10);
    expect(heldB).toBeLessThanOrEqual(10);
    expect((await level(sa.id, a.id))!.reserved).toBe(heldA);
    expect((await level(b.id, b.id))!.reserved).toBe(heldB);
    await expectLedgerMatchesRecount([a.id, b.id]);
  });

  it('reserves racing releases and expiry of the same leaf: what is given back can be taken again, and nothing more', async () => {
    const p = await product(simpleProduct());
    await addStock({ productID: p.id, quantity: 6 });
    const line: Line = { ref: 0, productID: p.id, quantity: 1 };
    const held = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const id of held) await buy(id, [line]);
    await em().execute(`update catalog.reservations set expires_at = now() - interval '1 minute' where order_id = any(?::uuid[])`, [`{${held.slice(3).join(',')}}`]);
    const [reserves, releases, expired] = await Promise.all([
      Promise.all(Array.from({ length: 30 }, () => attempt(randomUUID(), [line]))),
      Promise.all(held.slice(0, 3).flatMap((id) => [release(em(), id), release(em(), id)])),
      Promise.all([expireHeld(em()), expireHeld(em())]),
    ]);
    expect(releases.reduce((a, n) => a + n, 0)).toBe(3);
    expect(expired.reduce((a, n) => a + n, 0)).toBe(3);
    const won = reserves.filter((r) => r.ok).length;
    expect(won).toBeLessThanOrEqual(6);
    expect((await level(p.id, p.id))!.reserved).toBe(won);
    await expectLedgerMatchesRecount([p.id]);
  });
});

describe('reservations taken in batches', () => {
  const batchLine = (productID: string, quantity: number, ref = 0) => ({ ref, productID, productVariantID: null, productSubVariantID: null, quantity });

  it('orders in one batch take what is free in the order they came; one that no longer fits, or has a bad line, holds nothing', async () => {
    const p = await product(simpleProduct());
    const rental = await product(simpleProduct({ type: 'FOR_RENT' }));
    await addStock({ productID: p.id, quantity: 5 });
    const ids = Array.from({ length: 5 }, () => randomUUID());
    const outcomes = await reserveOrders(em(), [
      { orderId: ids[0]!, orderType: 'BUY', lines: [batchLine(p.id, 3)] },
      { orderId: ids[1]!, orderType: 'BUY', lines: [batchLine(p.id, 3)] }, // 2 left: refused
      { orderId: ids[2]!, orderType: 'BUY', lines: [batchLine(p.id, 1), batchLine(rental.id, 1, 1)] }, // a rental item in a purchase: 400
      { orderId: ids[3]!, orderType: 'BUY', lines: [batchLine(p.id, 2)] }, // takes the last 2
      { orderId: ids[0]!, orderType: 'BUY', lines: [batchLine(p.id, 3)] }, // the first again: a retry, nothing more
    ]);
    expect('lines' in outcomes[0]! && outcomes[0].lines[0]!.productName).toBe(p.name);
    expect(outcomes[1]).toMatchObject({ problem: { status: 409, detail: `Only 2 of ${p.name} left; you asked for 3. ${ORDER_MESSAGES.maxStock}` } });
    expect(outcomes[2]).toMatchObject({ problem: { status: 400, detail: ORDER_MESSAGES.wrongType, errors: [{ field: 'lines.1', message: ORDER_MESSAGES.wrongType }] } });
    expect('lines' in outcomes[3]!).toBe(true);
    expect('lines' in outcomes[4]!).toBe(true);
    expect(await level(p.id, p.id)).toMatchObject({ available: 5, reserved: 5 });
    const held = await em().execute<Array<{ order_id: string; quantity: number }>>(`select order_id, quantity from catalog.reservations where leaf_id = ? order by quantity`, [p.id]);
    expect(held).toEqual([{ order_id: ids[3], quantity: 2 }, { order_id: ids[0], quantity: 3 }]);
    await expectLedgerMatchesRecount([p.id]);
  });

  it('checkouts that arrive together share one statement; 50 for the last 5 units still get exactly 5', async () => {
    const reserveBatched = reservationBatcher(h.orm.em);
    const plenty = await product(simpleProduct());
    await addStock({ productID: plenty.id, quantity: 40 });
    const all = await Promise.all(Array.from({ length: 40 }, () => reserveBatched({ orderId: randomUUID(), orderType: 'BUY', lines: [batchLine(plenty.id, 1)] })));
    expect(all).toHaveLength(40);
    // Rows written by one transaction share its xmin: 40 orders were far fewer transactions.
    const [tx] = await em().execute<Array<{ n: number }>>(`select count(distinct xmin::text)::int as n from catalog.reservations where leaf_id = ?`, [plenty.id]);
    expect(tx!.n).toBeLessThan(40);
    expect(await level(plenty.id, plenty.id)).toMatchObject({ available: 40, reserved: 40 });

    for (let round = 0; round < 5; round++) {
      const last = await product(simpleProduct());
      await addStock({ productID: last.id, quantity: 5 });
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          reserveBatched({ orderId: randomUUID(), orderType: 'BUY', lines: [batchLine(last.id, 1)] }).then(
            () => 201,
            (e: HttpProblem) => e.status,
          ),
        ),
      );
      expect(results.filter((x) => x === 201), `round ${round}`).toHaveLength(5);
      expect(results.filter((x) => x === 409), `round ${round}`).toHaveLength(45);
      expect(await level(last.id, last.id)).toMatchObject({ available: 5, reserved: 5 });
      await expectLedgerMatchesRecount([last.id]);
    }
  });
});

describe('giving stock back', () => {
  it('release gives back once: twice in a row, or ten times at once', async () => {
    const p = await product(wheelchair({ type: 'FOR_SALE' }));
    const [std, heavy] = p.variants;
    await addStock({ productID: p.id, productVariantID: std!.id, productSubVariantID: std!.subVariants[0]!.id, quantity: 5 });
    await addStock({ productID: p.id, productVariantID: heavy!.id, productSubVariantID: heavy!.subVariants[1]!.id, quantity: 5 });
    const lines: Line[] = [
      { ref: 0, productID: p.id, productVariantID: std!.id, productSubVariantID: std!.subVariants[0]!.id, quantity: 2 },
      { ref: 1, productID: p.id, productVariantID: heavy!.id, productSubVariantID: heavy!.subVariants[1]!.id, quantity: 3 },
    ];
    const keep = randomUUID();
    await buy(keep, [{ ...lines[0]!, quantity: 1 }]);
    const once = randomUUID();
    await buy(once, lines);
    expect(await release(em(), once)).toBe(2);
    expect(await release(em(), once)).toBe(0);
    expect((await level(std!.subVariants[0]!.id, p.id))!.reserved).toBe(1);
    expect((await level(heavy!.subVariants[1]!.id, p.id))!.reserved).toBe(0);

    const many = randomUUID();
    await buy(many, lines);
    await confirm(em(), many);
    const given = await Promise.all(Array.from({ length: 10 }, () => release(em(), many)));
    expect(given.reduce((a, n) => a + n, 0)).toBe(2);
    expect((await level(std!.subVariants[0]!.id, p.id))!.reserved).toBe(1);
    expect((await h.api.get(`/api/admin/products/${p.id}`, { as: h.staff })).body.product.availableQuantity).toBe(9);
    await expectLedgerMatchesRecount([p.id]);
  });

  it('expiry gives back held reservations whose time is up, not confirmed ones, and only once', async () => {
    const p = await product(simpleProduct());
    await addStock({ productID: p.id, quantity: 5 });
    const line: Line = { ref: 0, productID: p.id, quantity: 2 };
    const lapsed = randomUUID();
    const placed = randomUUID();
    const fresh = randomUUID();
    for (const id of [lapsed, placed, fresh]) if (id !== fresh) await buy(id, [line]);
    await buy(fresh, [{ ...line, quantity: 1 }]);
    expect(await confirm(em(), placed)).toBe(1);
    await em().execute(`update catalog.reservations set expires_at = now() - interval '1 minute' where order_id in (?, ?)`, [lapsed, placed]);
    expect((await level(p.id, p.id))!.reserved).toBe(5);
    expect(await expireHeld(em())).toBe(1);
    expect(await expireHeld(em())).toBe(0);
    expect((await level(p.id, p.id))!.reserved).toBe(3);
    expect(await release(em(), lapsed)).toBe(0);
    const [row] = await em().execute<Array<{ status: string }>>(`select status from catalog.reservations where order_id = ?`, [lapsed]);
    expect(row!.status).toBe('EXPIRED');
    await expectLedgerMatchesRecount([p.id]);
  });

  it('a batch of order events: placed orders are confirmed, a cancelled or abandoned one released, even placed and cancelled in the same batch', async () => {
    const p = await product(simpleProduct());
    await addStock({ productID: p.id, quantity: 10 });
    const [kept, cancelled, placedThenCancelled, abandoned] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const id of [kept, cancelled, placedThenCancelled, abandoned]) await buy(id, [{ ref: 0, productID: p.id, quantity: 2 }]);
    expect((await level(p.id, p.id))!.reserved).toBe(8);
    const placedEvent = (orderId: string) =>
      eventEnvelope('order', {
        type: EVENTS.order.placed,
        aggregateId: orderId,
        data: { orderId, orderNumber: 'ORD-1', customerId: randomUUID(), type: 'BUY', typeOfOrder: null, totalAmount: '1.00', lines: [] },
      });
    const cancelledEvent = (orderId: string) =>
      eventEnvelope('order', {
        type: EVENTS.order.statusChanged,
        aggregateId: orderId,
        data: { orderId, orderNumber: 'ORD-1', customerId: randomUUID(), type: 'BUY', from: 'PENDING', to: 'CANCELLED', by: null },
      });
    await em().transactional((tem) =>
      handleOrderEvents(tem, [
        placedEvent(kept),
        placedEvent(cancelled),
        placedEvent(placedThenCancelled),
        cancelledEvent(placedThenCancelled),
        cancelledEvent(cancelled),
        eventEnvelope('order', { type: EVENTS.order.checkoutAbandoned, aggregateId: abandoned, data: { orderId: abandoned } }),
      ]),
    );
    const status = async (orderId: string) => (await em().execute<Array<{ status: string }>>(`select status from catalog.reservations where order_id = ?`, [orderId]))[0]!.status;
    expect(await status(kept)).toBe('CONFIRMED');
    expect(await status(cancelled)).toBe('RELEASED');
    expect(await status(placedThenCancelled)).toBe('RELEASED');
    expect(await status(abandoned)).toBe('RELEASED');
    expect((await level(p.id, p.id))!.reserved).toBe(2);
    await expectLedgerMatchesRecount([p.id]);
  });

  it('dme.order.checkout_abandoned (over JetStream) releases the order; again, or under another event id, gives back nothing more', async () => {
    const run = randomUUID().slice(0, 8);
    const nc: NatsConnection = await connectNats(testNatsUrl(), `catalog-ledger-${run}`);
    let consumer: RunningConsumer | undefined;
    try {
      await ensureEventStream(nc);
      consumer = await startOrderConsumer({ nc, em: h.orm.em, logger: createLogger('catalog-test', 'silent'), durable: `catalog-orders-ledger-${run}` });
      const p = await product(simpleProduct());
      await addStock({ productID: p.id, quantity: 5 });
      const other = randomUUID();
      await buy(other, [{ ref: 0, productID: p.id, quantity: 1 }]);
      const orderId = randomUUID();
      await buy(orderId, [{ ref: 0, productID: p.id, quantity: 3 }]);
      expect((await level(p.id, p.id))!.reserved).toBe(4);

      const abandoned = () => eventEnvelope('order', { type: EVENTS.order.checkoutAbandoned, aggregateId: orderId, data: { orderId } });
      const first = abandoned();
      const publish = (e: ReturnType<typeof abandoned>) => nc.publish(e.type, JSON.stringify(e));
      publish(first);
      await eventually(async () => (await level(p.id, p.id))!.reserved === 1, 20_000);
      const [row] = await em().execute<Array<{ status: string }>>(`select status from catalog.reservations where order_id = ?`, [orderId]);
      expect(row!.status).toBe('RELEASED');

      const second = abandoned();
      publish(first);
      publish(second);
      const handled = async (id: string) => (await em().execute(`select 1 from catalog.inbox where consumer = ? and event_id = ?`, [`catalog-orders-ledger-${run}`, id])).length > 0;
      await eventually(() => handled(second.id), 20_000);
      expect((await level(p.id, p.id))!.reserved).toBe(1);
      await expectLedgerMatchesRecount([p.id]);
    } finally {
      await consumer?.stop();
      await nc.drain();
    }
  }, 60_000);
});
