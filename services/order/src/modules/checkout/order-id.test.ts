import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, manilaDate, manilaInstant, PlaceOrderRequest } from '@dme/contracts';
import { callRpc, claimKeys, IDEMPOTENCY_LEASE_SECONDS, requestHash } from '@dme/platform';
import { eventually } from '@dme/testing';
import { ADDRESS, ledgerAndRecount, place, startOrdering, type OrderHarness } from '../../test/harness';
import { linesOf } from './lines';
import { checkoutOrderId, dayOrderedNameId, derivedOrderId } from './order-id';
import { abandonCheckout } from './place-order';

/**
 * Issue 30: a checkout's order id is derived from the customer, the Idempotency-Key and the lines,
 * so a checkout retried after its process was killed mid-request reserves under the same id and
 * the catalog holds its units once.
 */

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The first 48 bits of a day-ordered id, as an instant. */
const dayOf = (id: string) => new Date(parseInt(id.replace(/-/g, '').slice(0, 12), 16));

/**
 * A test that compares the id its checkout was given with one it derives waits out a coming Manila
 * midnight (the id's day would change between the two).
 */
async function awayFromMidnight(): Promise<void> {
  const left = manilaInstant(addDays(manilaDate(), 1), '00:00').getTime() - Date.now();
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 100));
}

describe('the derived order id', () => {
  it('is a version 8 UUID beginning with its Manila day, the same for the same customer, key, lines and day', () => {
    const customer = randomUUID();
    const key = randomUUID();
    const lines = [{ ref: 0, productID: randomUUID(), productVariantID: null, productSubVariantID: null, quantity: 2, noOfRentalDays: null, startDate: null }];
    // 23:59 and 00:00 in Manila (15:59 and 16:00 UTC) are two days.
    const late = new Date('2026-12-03T15:59:59.999Z');
    const next = new Date('2026-12-03T16:00:00.000Z');
    const id = derivedOrderId(customer, key, lines, 0, late);
    expect(id).toMatch(UUID_V8);
    expect(dayOf(id)).toEqual(new Date('2026-12-03T00:00:00+08:00'));
    expect(derivedOrderId(customer, key, structuredClone(lines), 0, new Date('2026-12-02T16:00:00.000Z'))).toBe(id);
    expect(derivedOrderId(customer.toUpperCase(), key, lines, 0, late)).toBe(id);
    // The next day: another id, sorting after.
    const tomorrow = derivedOrderId(customer, key, lines, 0, next);
    expect(dayOf(tomorrow)).toEqual(new Date('2026-12-04T00:00:00+08:00'));
    expect(tomorrow > id).toBe(true);
    expect(tomorrow.slice(13)).toBe(id.slice(13));
    // Another customer, key, line, attempt: another id.
    expect(derivedOrderId(randomUUID(), key, lines, 0, late)).not.toBe(id);
    expect(derivedOrderId(customer, randomUUID(), lines, 0, late)).not.toBe(id);
    expect(derivedOrderId(customer, key, [{ ...lines[0]!, quantity: 3 }], 0, late)).not.toBe(id);
    expect(derivedOrderId(customer, key, lines, 1, late)).not.toBe(id);
    // The ids the key was spent on are skipped, in order.
    expect(checkoutOrderId(customer, key, lines, [], late)).toBe(id);
    expect(checkoutOrderId(customer, key, lines, [id.toUpperCase()], late)).toBe(derivedOrderId(customer, key, lines, 1, late));
    expect(checkoutOrderId(customer, key, lines, [derivedOrderId(customer, key, lines, 1, late), id], late)).toBe(derivedOrderId(customer, key, lines, 2, late));
  });

  it('keeps the hash of a version 5 UUID after its day (the RFC 9562 test vector)', () => {
    // uuid5(DNS, "www.example.com") = 2ed6657d-e927-568b-95e1-2665a8aea6a2: the same SHA-1 after the 48 bits of the day.
    const id = dayOrderedNameId('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com', new Date(0));
    expect(id).toBe('00000000-0000-868b-95e1-2665a8aea6a2');
  });
});

let h: OrderHarness;
beforeAll(async () => {
  h = await startOrdering();
});
afterAll(() => h?.close());

const sale = () => h.product({ brand: 'Braun', name: `Thermo ${randomUUID().slice(0, 6)}`, type: 'FOR_SALE', price: '12.50', damageCharges: '0.00' });

/** A bulk checkout's body as the order service reads it, its request hash and its lines. */
function checkout(body: Record<string, unknown>) {
  const parsed = PlaceOrderRequest.parse({ ...ADDRESS, ...body });
  return { body, hash: requestHash(parsed), lines: linesOf(parsed, null).lines };
}

/** The catalog's reservation rows of an order. */
async function reservationsOf(orderId: string) {
  return h.catalogOrm.em.fork().execute<Array<{ status: string; quantity: number }>>(`select status, quantity from catalog.reservations where order_id = ? order by created_at, id`, [orderId]);
}

describe('checkout order ids (issue 30)', () => {
  beforeEach(awayFromMidnight);

  it('the same customer and key give the same order id; another customer with the same key another one', async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 5 });
    const a = h.customer();
    const b = h.customer();
    const key = randomUUID();
    const c = checkout({ type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] });
    const first = await place(h, a, c.body, key);
    expect(first.status).toBe(201);
    expect(first.body.order.id).toBe(derivedOrderId(a.userId, key, c.lines));
    // The replay of the finished key answers the same order.
    expect(await place(h, a, c.body, key)).toMatchObject({ status: 201, body: first.body });
    const other = await place(h, b, c.body, key);
    expect(other.status).toBe(201);
    expect(other.body.order.id).toBe(derivedOrderId(b.userId, key, c.lines));
    expect(other.body.order.id).not.toBe(first.body.order.id);
    expect((await h.available(p.id)).availableQuantity).toBe(3);
  });

  it('a checkout killed after its reservation and retried with the same key holds its units once', async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 5 });
    const c = h.customer();
    const key = randomUUID();
    const co = checkout({ type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 2 }] });
    const orderId = derivedOrderId(c.userId, key, co.lines);

    // The first attempt: its claim of the key, then its reservation in the catalog (over the real
    // request/reply), then kill -9: no answer, the claim left IN_PROGRESS, nothing abandoned.
    const [late] = await claimKeys(h.orderOrm.em, [{ owner: c.userId, key, hash: co.hash }]);
    expect(late).toBeTruthy();
    const held = (await callRpc(h.nc, h.subjects.reserve, { orderId, orderType: 'BUY', lines: co.lines })) as { lines: unknown[] };
    expect(held.lines).toHaveLength(1);
    expect((await h.available(p.id)).availableQuantity).toBe(3);

    // While the claim's lease runs the key is in use.
    const busy = await place(h, c, co.body, key);
    expect(busy.status).toBe(409);
    // The lease ran out: the retry takes the key over, asks the catalog with the same order id and
    // the catalog answers the reservation it holds.
    await h.orderOrm.em.fork().execute(`update ordering.idempotency_keys set created_at = created_at - make_interval(secs => ?) where owner_id = ? and key = ?`, [IDEMPOTENCY_LEASE_SECONDS + 1, c.userId, key]);
    const retried = await place(h, c, co.body, key);
    expect(retried.status).toBe(201);
    expect(retried.body.order.id).toBe(orderId);
    expect(await place(h, c, co.body, key)).toMatchObject({ status: 201, body: retried.body });

    // The catalog's counts: 2 units held, once, for the order, confirmed when it was placed.
    expect((await h.available(p.id)).availableQuantity).toBe(3);
    await eventually(async () => (await reservationsOf(orderId)).every((r) => r.status === 'CONFIRMED'), 10_000);
    expect(await reservationsOf(orderId)).toEqual([{ status: 'CONFIRMED', quantity: 2 }]);
    const counts = await ledgerAndRecount(h, [p.id]);
    expect(counts.ledger).toEqual(counts.recount);

    // The killed attempt's compensation, were it to run late, writes nothing: its claim is gone.
    await abandonCheckout(h.orderOrm.em.fork(), orderId, { customerId: c.userId, key, token: late! });
    const [events] = await h.orderOrm.em.fork().execute<Array<{ n: number }>>(`select count(*)::int as n from ordering.outbox where subject = 'dme.order.checkout_abandoned' and payload -> 'data' ->> 'orderId' = ?`, [orderId]);
    expect(events!.n).toBe(0);
    expect((await h.available(p.id)).availableQuantity).toBe(3);
    expect((await h.order.get('/api/my/orders', { as: c })).body.total).toBe(1);
  });

  it('after an abandoned attempt, a retry at once takes the next id: the release of the first cannot take its units', async () => {
    const em = h.orderOrm.em.fork();
    await em.execute(`create or replace function ordering.refuse_issue30_order() returns trigger language plpgsql as $$
      begin if new.note = 'refuse issue 30' then raise exception 'refused by the test trigger'; end if; return new; end $$`);
    await em.execute('create trigger refuse_issue30_order before insert on ordering.orders for each row execute function ordering.refuse_issue30_order()');
    try {
      const p = await sale();
      // Enough for both attempts: the retry's units are held while the first's may not be back yet.
      await h.addStock({ productID: p.id, quantity: 4 });
      const c = h.customer();
      const key = randomUUID();
      const co = checkout({ type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 2 }], note: 'refuse issue 30' });
      const abandoned = derivedOrderId(c.userId, key, co.lines);
      expect((await place(h, c, co.body, key)).status).toBe(500);
      // The retry does not wait for the catalog to have the release.
      await em.execute(`create or replace function ordering.refuse_issue30_order() returns trigger language plpgsql as $$ begin return new; end $$`);
      const retry = await place(h, c, co.body, key);
      expect(retry.status).toBe(201);
      expect(retry.body.order.id).toBe(derivedOrderId(c.userId, key, co.lines, 1));
      await eventually(async () => (await reservationsOf(abandoned)).every((r) => r.status === 'RELEASED'), 10_000);
      await eventually(async () => (await reservationsOf(retry.body.order.id)).every((r) => r.status === 'CONFIRMED'), 10_000);
      expect(await reservationsOf(retry.body.order.id)).toEqual([{ status: 'CONFIRMED', quantity: 2 }]);
      expect((await h.available(p.id)).availableQuantity).toBe(2);
      const counts = await ledgerAndRecount(h, [p.id]);
      expect(counts.ledger).toEqual(counts.recount);
    } finally {
      await em.execute('drop trigger if exists refuse_issue30_order on ordering.orders');
      await em.execute('drop function if exists ordering.refuse_issue30_order()');
    }
  });

  it("a key used again after its stored answer expired places a new order under another id; the first order's units stay held", async () => {
    const p = await sale();
    await h.addStock({ productID: p.id, quantity: 5 });
    const c = h.customer();
    const key = randomUUID();
    const co = checkout({ type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: p.id, quantity: 1 }] });
    const first = await place(h, c, co.body, key);
    expect(first.status).toBe(201);
    await eventually(async () => (await reservationsOf(first.body.order.id)).every((r) => r.status === 'CONFIRMED'), 10_000);
    // Housekeeping purged the key (its TTL ran out): the next checkout with it starts over.
    await h.orderOrm.em.fork().execute(`delete from ordering.idempotency_keys where owner_id = ? and key = ?`, [c.userId, key]);
    const again = await place(h, c, co.body, key);
    expect(again.status).toBe(201);
    expect(again.body.order.id).toBe(derivedOrderId(c.userId, key, co.lines, 1));
    expect((await h.order.get('/api/my/orders', { as: c })).body.total).toBe(2);
    expect(await reservationsOf(first.body.order.id)).toEqual([{ status: 'CONFIRMED', quantity: 1 }]);
    expect((await h.available(p.id)).availableQuantity).toBe(3);
  });
});
