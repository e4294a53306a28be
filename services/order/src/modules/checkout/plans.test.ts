import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimKeys, createOrm, migrate, sql, type Orm } from '@dme/platform';
import { createTestDatabase, rowsVisited, tablesReadWhole } from '@dme/testing';
import { migrations } from '../../app';
import { writeOrdersStatement, type OrderWrite } from './checkout.store';

/**
 * The order write is the order service's statement on every checkout: it must read the keys and
 * cart lines of the customers its batch names by key. Asked as PostgreSQL guesses a batch's JSON
 * (100 rows), it read every idempotency key (a sequential scan) while the table held up to a few
 * tens of thousands, a busy shop's day of requests (keys are kept a day). Checked without the
 * customers as an array: `idempotency_keys` read whole at 2,000 and 10,000 keys, by key at 50,000;
 * `cart_items` was read by key either way (asserted so that it stays so). Most of what the order
 * write costs more at a year's size is elsewhere: inserts on random index pages (docs/benchmarks.md).
 */
const KEYS = 10_000;

let db: { url: string; drop: () => Promise<void> };
let orm: Orm;
const em = () => orm.em.fork();

beforeAll(async () => {
  db = await createTestDatabase('orderplans');
  orm = await createOrm({ url: db.url, schema: 'ordering', entities: [], migrations, poolMax: 4 });
  await migrate(orm, 'ordering', db.url);
  // A shop's traffic: the keys of many customers' requests, and carts.
  await sql(
    em(),
    `insert into ordering.idempotency_keys (owner_id, key, request_hash, state, response_status, response_body, created_at)
     select gen_random_uuid(), 'k' || g, repeat('0', 64), 'DONE', 201, '{}'::jsonb, now() from generate_series(1, ${KEYS}) g`,
  );
  await sql(
    em(),
    `insert into ordering.cart_items (id, customer_id, type, product_id, quantity, created_at, updated_at)
     select gen_random_uuid(), gen_random_uuid(), 'BUY', gen_random_uuid(), 1, now(), now() from generate_series(1, ${KEYS}) g`,
  );
  await sql(em(), 'analyze ordering.idempotency_keys, ordering.cart_items');
}, 120_000);
afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

/** A batch as the checkout sends under load: `n` orders, each under its claimed key, of the customers given (new ones by default). */
async function batchOf(n: number, customers: string[] = Array.from({ length: n }, () => randomUUID())): Promise<OrderWrite[]> {
  const batch: OrderWrite[] = [];
  for (let i = 0; i < n; i++) {
    const customerId = customers[i % customers.length]!;
    const key = randomUUID();
    const [token] = await claimKeys(em(), [{ owner: customerId, key, hash: 'f'.repeat(64) }]);
    expect(token).toBeTruthy();
    batch.push({
      id: randomUUID(),
      day: '20261203',
      customerId,
      type: 'BUY',
      typeOfOrder: null,
      totalAmount: '12.50',
      partialPayment: null,
      deposit: '0.00',
      billing: 'UPFRONT',
      deliveryAddress: '1 Street',
      deliveryCity: 'Manila',
      deliveryState: 'NCR',
      deliveryZipcode: '1000',
      note: '',
      createdAt: new Date(),
      lines: [],
      trackerId: randomUUID(),
      trackerTitle: 'Order placed',
      cartIds: [randomUUID()],
      event: { id: randomUUID(), type: 'dme.order.placed', payload: { data: {} } },
      answer: { order: {} },
      key,
      token: token!,
    });
  }
  return batch;
}

describe('the order write in a busy shop', () => {
  it("reads its customers' idempotency keys and cart lines by key, not the whole tables", async () => {
    const whole = await tablesReadWhole(em(), ...writeOrdersStatement(em(), await batchOf(12)));
    expect(whole.filter((t) => ['idempotency_keys', 'cart_items'].includes(t))).toEqual([]);
  });

  it('reads the keys its orders claimed, not every key their customers sent that day', async () => {
    // Twelve busy customers (a clinic's buyers, the bench's 50), each with 400 answered requests today.
    const customers = Array.from({ length: 12 }, () => randomUUID());
    await sql(
      em(),
      `insert into ordering.idempotency_keys (owner_id, key, request_hash, state, response_status, response_body, created_at)
       select c, 'busy-' || g, repeat('0', 64), 'DONE', 201, '{}'::jsonb, now() from unnest($1::uuid[]) c, generate_series(1, 400) g`,
      [customers],
    );
    await sql(em(), 'analyze ordering.idempotency_keys');
    const batch = await batchOf(12, customers);
    const [text, values] = writeOrdersStatement(em(), batch);
    // Each claimed key is read to lock it and again to store its answer: twice the batch, give or take.
    expect(await rowsVisited(em(), text, values, 'idempotency_keys')).toBeLessThanOrEqual(4 * batch.length);
    // And the write writes them all (the plan asked for is the one that runs).
    expect(await sql(em(), text, values)).toHaveLength(12);
  });
});
