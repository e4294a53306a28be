import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream, jetstreamManager, AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { BOOKING_MESSAGES, EVENT_STREAM, manilaDate, ORDER_MESSAGES } from '@dme/contracts';
import { ClaimLostError, IDEMPOTENCY_LEASE_SECONDS } from '@dme/platform';
import { eventually } from '@dme/testing';
import { ADDRESS, place, startOrdering, type OrderHarness } from '../../test/harness';
import { checkoutStore, claimMany } from '../checkout/checkout.store';

let h: OrderHarness;
beforeAll(async () => {
  h = await startOrdering();
});
afterAll(() => h?.close());

const rental = (extra: Record<string, unknown> = {}) =>
  h.product({
    brand: 'Drive',
    name: `Chair ${randomUUID().slice(0, 6)}`,
    type: 'FOR_RENT',
    price: '15.00',
    variants: [
      { name: 'Standard', price: '15.00', damageCharges: '250.00' },
      { name: 'Heavy', subVariants: [{ name: '20 in', price: '22.50', damageCharges: '350.00' }] },
    ],
    ...extra,
  });
const sale = (price = '19.99') => h.product({ brand: 'Braun', name: `Thermo ${randomUUID().slice(0, 6)}`, type: 'FOR_SALE', price, damageCharges: '0.00' });

describe('placing orders', () => {
  it('a rental from the cart: server totals (qty × price × days), PENDING tracker, cart emptied, first-day partial', async () => {
    const p = await rental();
    await h.addStock({ productID: p.id, productVariantID: p.variants[0].id, quantity: 5 });
    await h.addStock({ productID: p.id, productVariantID: p.variants[1].id, productSubVariantID: p.variants[1].subVariants[0].id, quantity: 5 });
    const c = h.customer();
    await h.order.post('/api/cart', { type: 'RENT', productID: p.id, productVariantID: p.variants[0].id, quantity: 2, noOfRentalDays: 7 }, { as: c });
    await h.order.post('/api/cart', { type: 'RENT', productID: p.id, productVariantID: p.variants[1].id, productSubVariantID: p.variants[1].subVariants[0].id, quantity: 1, noOfRentalDays: 3 }, { as: c });
    // A client-sent total is ignored: the server computes it.
    const res = await place(h, c, { type: 'RENT', totalAmount: '0.01' });
    expect(res.status).toBe(201);
    const o = res.body.order;
    // 2 × 15.00 × 7 = 210.00 and 1 × 22.50 × 3 = 67.50
    expect(o.totalAmount).toBe('277.50');
    expect(o.partialPayment).toBe('52.50');
    expect(o).toMatchObject({ status: 'PENDING', type: 'RENT', typeOfOrder: null, deliveryAddress: ADDRESS.deliveryAddress, payment: { status: 'UNPAID', totalOrderPayment: '277.50' } });
    expect(o.orderNumber).toMatch(/^ORD-\d{8}-\d{6}$/);
    expect(o.orderTracker).toEqual([{ title: 'Order placed', status: 'PENDING', createdAt: expect.any(String) }]);
    expect(o.products.map((l: { lineTotal: string; productAmount: string; noOfRentalDays: number }) => [l.productAmount, l.noOfRentalDays, l.lineTotal])).toEqual([
      ['15.00', 7, '210.00'],
      ['22.50', 3, '67.50'],
    ]);
    expect(o.allowedTransitions).toEqual(['CANCELLED']);
    const [stored] = await h.orderOrm.em.fork().execute<Array<{ total_amount: string }>>('select total_amount from ordering.orders where id = ?', [o.id]);
    expect(stored!.total_amount).toBe('277.50');
    expect((await h.order.get('/api/cart?type=RENT', { as: c })).body.items).toHaveLength(0);
    const after = await h.available(p.id);
    expect(after.variants.map((v: { availableQuantity: number }) => v.availableQuantity)).toEqual([3, 4]);
  });

  it('dated rentals (issue 25): the start chosen in the cart or on a bulk line is booked and kept on the line; days already booked are refused, as is a start out of range', async () => {
    const p = await rental();
    await h.addStock({ productID: p.id, productVariantID: p.variants[0].id, quantity: 1 });
    const ahead = (n: number) => new Date(Date.now() + 8 * 3_600_000 + n * 86_400_000).toISOString().slice(0, 10);
    const standard = { productID: p.id, productVariantID: p.variants[0].id };
    const c = h.customer();
    const added = await h.order.post('/api/cart', { type: 'RENT', ...standard, quantity: 1, noOfRentalDays: 2, startDate: ahead(10) }, { as: c });
    expect(added.status).toBe(201);
    expect(added.body.item).toMatchObject({ startDate: ahead(10), noOfRentalDays: 2 });
    const res = await place(h, c, { type: 'RENT' });
    expect(res.status).toBe(201);
    expect(res.body.order.products[0]).toMatchObject({ startDate: ahead(10), noOfRentalDays: 2 });
    expect((await h.order.get(`/api/my/orders/${res.body.order.id}`, { as: c })).body.order.products[0].startDate).toBe(ahead(10));
    // The only unit is taken from the 10th to the 13th (2 days + 1 turnaround): today is still free, the 12th is not.
    const other = h.customer();
    expect((await h.order.post('/api/cart', { type: 'RENT', ...standard, quantity: 1, noOfRentalDays: 1, startDate: ahead(12) }, { as: other })).status).toBe(409);
    const bulk = await place(h, other, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ ...standard, quantity: 1, noOfRentalDays: 1, startDate: ahead(11) }] });
    expect(bulk.status).toBe(409);
    expect(bulk.body.detail).toContain(BOOKING_MESSAGES.firstFree(ahead(13)));
    const today = await place(h, other, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ ...standard, quantity: 1, noOfRentalDays: 2 }] });
    expect(today.status).toBe(201);
    expect(today.body.order.products[0].startDate).toBe(manilaDate());
    // A start in the past or beyond the booking horizon is a 400 with the message, before anything is asked of the catalog.
    for (const startDate of [ahead(-1), ahead(181), '2026-02-30']) {
      const bad = await h.order.post('/api/cart', { type: 'RENT', ...standard, quantity: 1, noOfRentalDays: 1, startDate }, { as: other });
      expect(bad.status, startDate).toBe(400);
    }
  });

  it('a bulk purchase order line by line; the price snapshot stays when the catalog price changes later', async () => {
    const p = await sale('19.99');
    await h.addStock({ productID: p.id, quantity: 10 });
    const c = h.customer();
    const res = await place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 3 }] });
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({ typeOfOrder: 'BULK', totalAmount: '59.97', partialPayment: null });
    await h.catalog.patch(`/api/products/${p.id}`, { brand: 'Braun', name: p.name, description: 'x', type: 'FOR_SALE', image: p.image, price: '25.00', damageCharges: '0.00' }, { as: h.staff });
    const again = await h.order.get(`/api/my/orders/${res.body.order.id}`, { as: c });
    expect(again.body.order.products[0].productAmount).toBe('19.99');
    expect(again.body.order.totalAmount).toBe('59.97');
  });

  it('refuses what cannot be ordered, reserving nothing: no stock (409 naming the line), wrong type, missing variant, empty cart, bad address', async () => {
    const p = await rental();
    const c = h.customer();
    const none = await place(h, c, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: p.id, productVariantID: p.variants[0].id, quantity: 1, noOfRentalDays: 2 }] });
    expect(none.status).toBe(409);
    // A rental is refused for its dates (issue 25), with the spec's message and no start that works.
    expect(none.body.detail).toBe(`${BOOKING_MESSAGES.notFree(`${p.name} / Standard`, 1, manilaDate())} ${ORDER_MESSAGES.maxStock} ${BOOKING_MESSAGES.noneAhead}`);
    const s = await sale();
    await h.addStock({ productID: s.id, quantity: 2 });
    const wrongType = await place(h, c, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: s.id, quantity: 1, noOfRentalDays: 1 }] });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.detail).toBe(ORDER_MESSAGES.wrongType);
    const noVariant = await place(h, c, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1, noOfRentalDays: 1 }] });
    expect(noVariant.body.detail).toBe(ORDER_MESSAGES.chooseVariant);
    const empty = await place(h, c, { type: 'BUY' });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe(ORDER_MESSAGES.emptyOrder);
    const badAddress = await place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: s.id, quantity: 1 }], deliveryAddress: '1234567890123', deliveryZipcode: '123', deliveryCity: '' });
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'deliveryAddress', message: 'Address must be at most 12 characters.' },
        { field: 'deliveryZipcode', message: 'Zipcode must be at least 6 characters.' },
        { field: 'deliveryCity', message: 'Please input your City!' },
      ]),
    );
    expect((await h.available(s.id)).availableQuantity).toBe(2);
    const orders = await h.orderOrm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from ordering.orders where customer_id = ?', [c.userId]);
    expect(orders[0]!.n).toBe(0);
  });

  it('needs an Idempotency-Key', async () => {
    const res = await h.order.post('/api/orders', { ...ADDRESS, type: 'BUY' }, { as: h.customer() });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(ORDER_MESSAGES.idempotencyMissing);
  });
});

describe('no oversell under concurrency', () => {
  it('50 customers order the last 5 units of one variant at once: exactly 5 orders, 45 answers of 409 — 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const p = await rental();
      const variantID = p.variants[0].id;
      await h.addStock({ productID: p.id, productVariantID: variantID, quantity: 5 });
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          place(h, h.customer(), { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: p.id, productVariantID: variantID, quantity: 1, noOfRentalDays: 2 }] }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201), `round ${round}`).toHaveLength(5);
      expect(statuses.filter((s) => s === 409), `round ${round}`).toHaveLength(45);
      const after = await h.available(p.id);
      expect(after.variants[0].availableQuantity, `round ${round}`).toBe(0);
      const held = await h.catalogOrm.em.fork().execute<Array<{ n: number }>>(
        `select coalesce(sum(quantity), 0)::int as n from catalog.reservations where leaf_id = ? and status in ('HELD','CONFIRMED')`,
        [variantID],
      );
      expect(held[0]!.n, `round ${round}`).toBe(5);
      const [orders] = await h.orderOrm.em.fork().execute<Array<{ n: number }>>(
        `select count(*)::int as n from ordering.order_lines where variant_id = ?`,
        [variantID],
      );
      expect(orders!.n, `round ${round}`).toBe(5);
    }
  }, 180_000);

  it('carts with several items in different orders: no deadlock, no oversell', async () => {
    const a = await sale('5.00');
    const b = await sale('7.00');
    await h.addStock({ productID: a.id, quantity: 10 });
    await h.addStock({ productID: b.id, quantity: 10 });
    const customers = Array.from({ length: 30 }, () => h.customer());
    for (const [i, c] of customers.entries()) {
      const first = i % 2 === 0 ? a : b;
      const second = i % 2 === 0 ? b : a;
      await h.order.post('/api/cart', { type: 'BUY', productID: first.id, quantity: 1 }, { as: c });
      await h.order.post('/api/cart', { type: 'BUY', productID: second.id, quantity: 1 }, { as: c });
    }
    const results = await Promise.all(customers.map((c) => place(h, c, { type: 'BUY' })));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect((await h.available(a.id)).availableQuantity).toBe(0);
    expect((await h.available(b.id)).availableQuantity).toBe(0);
    // The refused customers keep their carts.
    const refused = customers.filter((_, i) => statuses[i] === 409);
    expect((await h.order.get('/api/cart?type=BUY', { as: refused[0]! })).body.items).toHaveLength(2);
  });
});

describe('the answer and what is stored', () => {
  it('the order in the answer is exactly what reading it back shows (cart rental and bulk purchase)', async () => {
    const p = await rental();
    await h.addStock({ productID: p.id, productVariantID: p.variants[0].id, quantity: 3 });
    await h.addStock({ productID: p.id, productVariantID: p.variants[1].id, productSubVariantID: p.variants[1].subVariants[0].id, quantity: 3 });
    const c = h.customer();
    await h.order.post('/api/cart', { type: 'RENT', productID: p.id, productVariantID: p.variants[0].id, quantity: 2, noOfRentalDays: 4 }, { as: c });
    await h.order.post('/api/cart', { type: 'RENT', productID: p.id, productVariantID: p.variants[1].id, productSubVariantID: p.variants[1].subVariants[0].id, quantity: 1, noOfRentalDays: 2 }, { as: c });
    const placed = await place(h, c, { type: 'RENT', note: 'Ring twice' });
    expect(placed.status).toBe(201);
    const read = await h.order.get(`/api/my/orders/${placed.body.order.id}`, { as: c });
    expect(placed.body.order).toEqual(read.body.order);
    const s = await sale('4.25');
    await h.addStock({ productID: s.id, quantity: 4 });
    const key = randomUUID();
    const bulk = await place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: s.id, quantity: 3 }] }, key);
    expect(bulk.status).toBe(201);
    expect(bulk.body.order).toEqual((await h.order.get(`/api/my/orders/${bulk.body.order.id}`, { as: c })).body.order);
    // The stored idempotent answer is the same order, with its number.
    const again = await place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: s.id, quantity: 3 }] }, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(bulk.body);
  });

  it('when the order cannot be written after its stock was reserved, the reservation is released through the outbox', async () => {
    // A real failure of the write, made by the database itself: a trigger refuses this one order.
    const em = h.orderOrm.em.fork();
    await em.execute(`create or replace function ordering.refuse_test_order() returns trigger language plpgsql as $$
      begin if new.note = 'refuse me' then raise exception 'refused by the test trigger'; end if; return new; end $$`);
    await em.execute('create trigger refuse_test_order before insert on ordering.orders for each row execute function ordering.refuse_test_order()');
    try {
      const p = await sale('7.00');
      await h.addStock({ productID: p.id, quantity: 2 });
      const c = h.customer();
      const key = randomUUID();
      const res = await place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 2 }], note: 'refuse me' }, key);
      expect(res.status).toBe(500);
      const [row] = await em.execute<Array<{ n: number }>>(`select count(*)::int as n from ordering.orders where customer_id = ?`, [c.userId]);
      expect(row!.n).toBe(0);
      // The catalog gets dme.order.checkout_abandoned and gives the units back.
      await eventually(async () => (await h.available(p.id)).availableQuantity === 2, 10_000);
      // Not a definite answer: the same key can be used again, and works.
      await em.execute('drop trigger refuse_test_order on ordering.orders');
      const retry = await place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 2 }], note: 'ok now' }, key);
      expect(retry.status).toBe(201);
    } finally {
      await em.execute('drop trigger if exists refuse_test_order on ordering.orders');
      await em.execute('drop function if exists ordering.refuse_test_order()');
    }
  });
});

describe('checkouts taken together', () => {
  it('30 orders at once are written in far fewer transactions, each numbered, with its tracker entry, event and stored answer', async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 30 });
    const customers = Array.from({ length: 30 }, () => h.customer());
    const results = await Promise.all(customers.map((c) => place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] })));
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
    const ids = results.map((r) => r.body.order.id as string);
    const em = h.orderOrm.em.fork();
    // Rows written by one transaction share its xmin.
    const [tx] = await em.execute<Array<{ n: number }>>(`select count(distinct xmin::text)::int as n from ordering.orders where id = any(?::uuid[])`, [`{${ids.join(",")}}`]);
    expect(tx!.n).toBeLessThan(30);
    const numbers = results.map((r) => r.body.order.orderNumber as string);
    expect(new Set(numbers).size).toBe(30);
    for (const n of numbers) expect(n).toMatch(/^ORD-\d{8}-\d{6}$/);
    for (const [i, r] of results.entries()) {
      const order = r.body.order;
      const [event] = await em.execute<Array<{ payload: { data: { orderNumber: string; orderId: string } } }>>(
        `select payload from ordering.outbox where subject = 'dme.order.placed' and payload -> 'data' ->> 'orderId' = ?`,
        [order.id],
      );
      expect(event!.payload.data.orderNumber).toBe(order.orderNumber);
      const [stored] = await em.execute<Array<{ state: string; response_body: { order: { orderNumber: string } } }>>(
        `select state, response_body from ordering.idempotency_keys where owner_id = ?`,
        [customers[i]!.userId],
      );
      expect(stored).toMatchObject({ state: 'DONE', response_body: { order: { orderNumber: order.orderNumber } } });
      const read = await h.order.get(`/api/my/orders/${order.id}`, { as: customers[i]! });
      expect(read.body.order).toEqual(order);
    }
    expect((await h.available(p.id)).availableQuantity).toBe(0);
  });

  it('order numbers past 999,999 keep every digit (a busy year reaches a million orders): three taken together are distinct', async () => {
    const em = h.orderOrm.em.fork();
    const [seq] = await em.execute<Array<{ n: string }>>('select last_value::text as n from ordering.order_number_seq');
    await em.execute('select setval(\'ordering.order_number_seq\', 999998)');
    try {
      const p = await sale();
      await h.addStock({ productID: p.id, quantity: 3 });
      const results = await Promise.all([0, 1, 2].map(() => place(h, h.customer(), { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] })));
      expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
      const tails = results.map((r) => (r.body.order.orderNumber as string).split('-')[2]).sort();
      expect(tails).toEqual(['1000000', '1000001', '999999']);
    } finally {
      // The numbers after the old value were not used: the tests after this one number as before.
      await em.execute(`select setval('ordering.order_number_seq', ${Number(seq!.n)})`);
    }
  });

  it('one key twice in the same batch of claims: the first request holds it, the second finds it taken', async () => {
    const em = h.orderOrm.em;
    const c = h.customer();
    const key = randomUUID();
    const claims = await claimMany(em, [
      { customerId: c.userId, key, hash: 'a'.repeat(64), cart: null },
      { customerId: c.userId, key, hash: 'a'.repeat(64), cart: null },
      { customerId: c.userId, key: randomUUID(), hash: 'b'.repeat(64), cart: { type: 'RENT', ids: null } },
    ]);
    expect(claims.map((r) => r.ok && r.value.token !== null)).toEqual([true, false, true]);
    expect(claims[2]!.ok && claims[2]!.value.cart).toEqual([]);
    expect(claims[0]!.ok && claims[0]!.value.cart).toBeNull();
  });

  it('an order that cannot be written fails alone; the orders written with it are not held back', async () => {
    const store = checkoutStore(h.orderOrm.em);
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 3 });
    const placed = await place(h, h.customer(), { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] });
    expect(placed.status).toBe(201);
    const write = async (id: string) => {
      const customerId = randomUUID();
      const key = randomUUID();
      const [claim] = await claimMany(h.orderOrm.em, [{ customerId, key, hash: 'c'.repeat(64), cart: null }]);
      return {
        id,
        day: '20261124',
        customerId,
        type: 'BUY',
        typeOfOrder: 'BULK',
        totalAmount: '19.99',
        partialPayment: null,
        deposit: '0.00',
        billing: 'UPFRONT',
        ...ADDRESS,
        createdAt: new Date(),
        lines: [],
        trackerId: randomUUID(),
        trackerTitle: 'Order placed',
        cartIds: [],
        event: { id: randomUUID(), type: 'dme.order.placed', payload: { orderNumber: '' } },
        answer: { order: {} },
        key,
        token: (claim!.ok && claim!.value.token) || '',
      };
    };
    // The second reuses the id of an order that exists: the batch fails, then each is written alone.
    const writes = await Promise.all([write(randomUUID()), write(placed.body.order.id), write(randomUUID())]);
    const results = await Promise.allSettled(writes.map((w) => store.write(w)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    for (const r of results) if (r.status === 'fulfilled') expect(r.value).toMatch(/^ORD-20261124-\d{6}$/);
  });
});

describe('idempotency', () => {
  it('the same key and body give the same answer and one order; the same key with another body is 422', async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 5 });
    const c = h.customer();
    const key = randomUUID();
    const body = { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] };
    const first = await place(h, c, body, key);
    const second = await place(h, c, body, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    const other = await place(h, c, { ...body, lines: [{ productID: p.id, quantity: 2 }] }, key);
    expect(other.status).toBe(422);
    expect(other.body.detail).toBe(ORDER_MESSAGES.idempotencyMismatch);
    const mine = await h.order.get('/api/my/orders', { as: c });
    expect(mine.body.total).toBe(1);
    expect((await h.available(p.id)).availableQuantity).toBe(4);
  });

  it('the same key sent twice at once still makes one order', async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 5 });
    const c = h.customer();
    const key = randomUUID();
    const body = { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] };
    const results = await Promise.all([place(h, c, body, key), place(h, c, body, key), place(h, c, body, key)]);
    expect(results.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect((await h.order.get('/api/my/orders', { as: c })).body.total).toBe(1);
    expect((await h.available(p.id)).availableQuantity).toBe(4);
  });

  it('a refused order answers the same way again for the same key', async () => {
    const p = await sale();
    const c = h.customer();
    const key = randomUUID();
    const body = { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] };
    const first = await place(h, c, body, key);
    expect(first.status).toBe(409);
    await h.addStock({ productID: p.id, quantity: 5 });
    const again = await place(h, c, body, key);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(first.body);
    expect((await place(h, c, body)).status).toBe(201);
  });
});

describe('a key left claimed by a crash (kill -9 between claim and answer)', () => {
  /** Leaves `key` IN_PROGRESS for `c`, `ageSeconds` old, with the body hash of the finished order of key `hashOf`. */
  async function leftClaimed(c: { userId: string }, key: string, ageSeconds: number, hashOf: string) {
    const em = h.orderOrm.em.fork();
    const [done] = await em.execute<Array<{ request_hash: string }>>(`select request_hash from ordering.idempotency_keys where owner_id = ? and key = ?`, [c.userId, hashOf]);
    await em.execute(
      `insert into ordering.idempotency_keys (owner_id, key, request_hash, state, created_at) values (?, ?, ?, 'IN_PROGRESS', now() - make_interval(secs => ?))`,
      [c.userId, key, done!.request_hash, ageSeconds],
    );
  }

  it('answers 409 while the claim is fresh; after the lease a retry with the same body takes the key over and places one order', async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 5 });
    const c = h.customer();
    const body = { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] };
    const model = randomUUID();
    expect((await place(h, c, body, model)).status).toBe(201);

    const fresh = randomUUID();
    await leftClaimed(c, fresh, 5, model);
    expect((await place(h, c, body, fresh)).status).toBe(409);

    const stale = randomUUID();
    await leftClaimed(c, stale, IDEMPOTENCY_LEASE_SECONDS + 5, model);
    // Another body never takes a key over: it was used for something else.
    expect((await place(h, c, { ...body, lines: [{ productID: p.id, quantity: 2 }] }, stale)).status).toBe(422);
    const retried = await place(h, c, body, stale);
    expect(retried.status).toBe(201);
    expect(await place(h, c, body, stale)).toMatchObject({ status: 201, body: retried.body });
    expect((await h.order.get('/api/my/orders', { as: c })).body.total).toBe(2); // the model order and the retried one
    expect((await h.available(p.id)).availableQuantity).toBe(3);
  });

  it('a claimant that lost its lease writes nothing; the one that took the key over writes the order', async () => {
    const em = h.orderOrm.em;
    const store = checkoutStore(em);
    const c = h.customer();
    const key = randomUUID();
    const claim = { customerId: c.userId, key, hash: 'd'.repeat(64), cart: null };
    const [first] = await claimMany(em, [claim]);
    const late = first!.ok ? first!.value.token : null;
    expect(late).not.toBeNull();
    await em.fork().execute(`update ordering.idempotency_keys set created_at = created_at - make_interval(secs => ?) where owner_id = ? and key = ?`, [IDEMPOTENCY_LEASE_SECONDS + 1, c.userId, key]);
    const [second] = await claimMany(em, [claim]);
    const taker = second!.ok ? second!.value.token : null;
    expect(taker).not.toBeNull();
    expect(taker).not.toBe(late);
    const order = (token: string) => ({
      id: randomUUID(), day: '20261124', customerId: c.userId, type: 'BUY', typeOfOrder: 'BULK', totalAmount: '19.99', partialPayment: null, deposit: '0.00', billing: 'UPFRONT', ...ADDRESS,
      createdAt: new Date(), lines: [], trackerId: randomUUID(), trackerTitle: 'Order placed', cartIds: [],
      event: { id: randomUUID(), type: 'dme.order.placed', payload: { orderNumber: '' } }, answer: { order: {} }, key, token,
    });
    const lost = order(late!);
    await expect(store.write(lost)).rejects.toBeInstanceOf(ClaimLostError);
    const [none] = await em.fork().execute<Array<{ n: number }>>(`select count(*)::int as n from ordering.orders where id = ?`, [lost.id]);
    expect(none!.n).toBe(0);
    expect(await store.write(order(taker!))).toMatch(/^ORD-20261124-\d{6}$/);
    const [stored] = await em.fork().execute<Array<{ state: string }>>(`select state from ordering.idempotency_keys where owner_id = ? and key = ?`, [c.userId, key]);
    expect(stored!.state).toBe('DONE');
  });
});

describe('customers see only their own orders and carts', () => {
  it("customer B gets 404 for A's order, cart line and cancel; B's list never shows A's orders", async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 5 });
    const a = h.customer();
    const b = h.customer();
    const order = (await place(h, a, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] })).body.order;
    const line = (await h.order.post('/api/cart', { type: 'BUY', productID: p.id, quantity: 1 }, { as: a })).body.item;
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: b })).status).toBe(404);
    expect((await h.order.patch(`/api/cart/${line.id}`, { quantity: 3 }, { as: b })).status).toBe(404);
    expect((await h.order.del(`/api/cart/${line.id}`, { as: b })).status).toBe(404);
    expect((await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'CANCELLED' }, { as: b })).status).toBe(404);
    const listB = await h.order.get(`/api/my/orders?customerID=${a.userId}&customerId=${a.userId}`, { as: b });
    expect(listB.body.items.map((o: { id: string }) => o.id)).not.toContain(order.id);
    // The tabs' counts are of one's own orders only (issue 27): A's PENDING order is in A's, not B's.
    expect(listB.body.counts).toEqual({});
    expect((await h.order.get('/api/my/orders?type=BUY&status=DELIVERED', { as: a })).body).toMatchObject({ items: [], total: 0, counts: { PENDING: 1 } });
    expect((await h.order.get('/api/my/orders?type=RENT', { as: a })).body.counts).toEqual({});
    // A's things are untouched.
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: a })).body.order.status).toBe('PENDING');
    expect((await h.order.get('/api/cart?type=BUY', { as: a })).body.items[0].quantity).toBe(1);
    // Staff routes stay closed to customers.
    expect((await h.order.get('/api/my/orders', { as: h.staff })).status).toBe(403);
  });
});

describe('cancel', () => {
  it('the owner cancels a PENDING order: CANCELLED, tracker entry, reservation released; not twice', async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 3 });
    const c = h.customer();
    const order = (await place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 2 }] })).body.order;
    expect((await h.available(p.id)).availableQuantity).toBe(1);
    const res = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'CANCELLED' }, { as: c });
    expect(res.status).toBe(200);
    expect(res.body.order.status).toBe('CANCELLED');
    expect(res.body.order.orderTracker.map((t: { status: string }) => t.status)).toEqual(['PENDING', 'CANCELLED']);
    expect(res.body.order.allowedTransitions).toEqual([]);
    await eventually(async () => (await h.available(p.id)).availableQuantity === 3, 10_000);
    const again = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'CANCELLED' }, { as: c });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(ORDER_MESSAGES.cannotCancel);
  });

  it('staff may cancel; a customer may not move an order elsewhere', async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 3 });
    const c = h.customer();
    const order = (await place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] })).body.order;
    expect((await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'FOR_PAYMENT' }, { as: c })).status).toBe(403);
    expect((await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'DELIVERED' }, { as: c })).status).toBe(409);
    const res = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'CANCELLED' }, { as: h.staff });
    expect(res.body.order.status).toBe('CANCELLED');
  });

  it("a driver gets 404 for an order that is not theirs, exactly like an unknown id (ids cannot be probed)", async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 2 });
    const order = (await place(h, h.customer(), { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] })).body.order;
    const driver = { userId: randomUUID(), userType: 'DRIVER' as const };
    const mine = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'CANCELLED' }, { as: driver });
    const unknown = await h.order.post(`/api/orders/${randomUUID()}/transitions`, { to: 'CANCELLED' }, { as: driver });
    expect(mine.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(mine.body.detail).toBe(unknown.body.detail);
    expect(mine.body.title).toBe(unknown.body.title);
  });
});

describe('events', () => {
  it('dme.order.placed reaches a JetStream consumer once', async () => {
    const jsm = await jetstreamManager(h.nc);
    const durable = `probe-${randomUUID().slice(0, 8)}`;
    await jsm.consumers.add(EVENT_STREAM, { durable_name: durable, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New, filter_subject: 'dme.order.placed' });
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 2 });
    const c = h.customer();
    const key = randomUUID();
    const body = { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] };
    const order = (await place(h, c, body, key)).body.order;
    await place(h, c, body, key); // a retry must not publish again
    const consumer = await jetstream(h.nc).consumers.get(EVENT_STREAM, durable);
    const seen: string[] = [];
    await eventually(async () => {
      const batch = await consumer.fetch({ max_messages: 50, expires: 1000 });
      for await (const m of batch) {
        const e = m.json<{ data: { orderId: string; totalAmount: string } }>();
        if (e.data.orderId === order.id) seen.push(e.data.totalAmount);
        m.ack();
      }
      return seen.length > 0;
    }, 10_000);
    await new Promise((r) => setTimeout(r, 700));
    const late = await consumer.fetch({ max_messages: 50, expires: 1000 });
    for await (const m of late) {
      if (m.json<{ data: { orderId: string } }>().data.orderId === order.id) seen.push('again');
      m.ack();
    }
    expect(seen).toEqual([order.totalAmount]);
    await jsm.consumers.delete(EVENT_STREAM, durable);
  });
});
