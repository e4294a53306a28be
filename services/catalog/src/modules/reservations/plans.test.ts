import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '@dme/platform';
import { tablesReadWhole } from '@dme/testing';
import { simpleProduct, startCatalog, type CatalogHarness } from '../../test/harness';
import { reservePurchasesStatement } from './reservation.service';
import type { Reserve } from './lines';

/**
 * The reservation is the catalog's statement on every checkout: it must read the rows its batch
 * names by key, whatever the size of the catalogue. Asked as PostgreSQL guesses a batch's JSON (100
 * rows, 10,000 lines), it hashed every product, stock level and reservation on each call, a cost
 * that grew with the catalogue (issue 30: 24 ms a call at 3,000 products, 4 ms read by key).
 */
const PRODUCTS = 4000;

let h: CatalogHarness;
let clones: string[];
const db = () => h.orm.em.fork();

/** Copies row `id` of `table` n times, the columns in `set` given by SQL of the copy `s` and its number `g`. */
async function copies(table: string, where: string, n: number, set: Record<string, string>): Promise<void> {
  const cols = await sql<{ c: string }>(
    db(),
    `select column_name as c from information_schema.columns where table_schema = 'catalog' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
    [table],
  );
  const names = cols.map((c) => c.c);
  await sql(
    db(),
    `insert into catalog.${table} (${names.map((c) => `"${c}"`).join(', ')})
     select ${names.map((c) => set[c] ?? `s."${c}"`).join(', ')} from catalog.${table} s, generate_series(1, ${n}) g where ${where}`,
  );
}

beforeAll(async () => {
  h = await startCatalog();
  const bin = (await h.api.post('/api/warehouse-bins', { name: 'Plans', description: 'bin' }, { as: h.staff })).body.bin.id;
  const product = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product;
  expect((await h.api.post('/api/stocks', { warehouseBinID: bin, productID: product.id, quantity: 5 }, { as: h.staff })).status).toBe(201);
  // A catalogue of a busy shop: thousands of products, each with its stock level, and reservations on them.
  const copy = `md5(s.product_id::text || g)::uuid`;
  await copies('products', `s.id = '${product.id}'`, PRODUCTS, { id: `md5(s.id::text || g)::uuid`, name: `s.name || ' ' || g` });
  await copies('stock_levels', `s.leaf_id = '${product.id}'`, PRODUCTS, { leaf_id: copy, product_id: copy });
  await sql(
    db(),
    `insert into catalog.reservations (id, order_id, product_id, leaf_id, quantity, status, expires_at)
     select gen_random_uuid(), gen_random_uuid(), md5($1 || (g % ${PRODUCTS} + 1))::uuid, md5($1 || (g % ${PRODUCTS} + 1))::uuid, 1, 'CONFIRMED', null
       from generate_series(1, ${PRODUCTS * 5}) g`,
    [product.id],
  );
  await sql(db(), 'analyze catalog.products, catalog.stock_levels, catalog.reservations');
  clones = (await sql<{ id: string }>(db(), `select md5($1 || g)::uuid::text as id from generate_series(1, 30) g`, [product.id])).map((r) => r.id);
}, 120_000);
afterAll(() => h?.close());

describe('the reservation on a big catalogue', () => {
  it('reads the products, stock levels and reservations its batch names by key, not the whole tables', async () => {
    // A batch as the checkout sends under load: a dozen orders of a line or two each.
    const batch: Reserve[] = Array.from({ length: 12 }, (_, i) => ({
      orderId: randomUUID(),
      orderType: 'BUY',
      lines: [clones[i]!, clones[i + 12]!].slice(0, 1 + (i % 2)).map((productID, ref) => ({ ref, productID, productVariantID: null, productSubVariantID: null, quantity: 1 })),
    }));
    const whole = await tablesReadWhole(db(), ...reservePurchasesStatement(db(), batch));
    expect(whole.filter((t) => ['products', 'stock_levels', 'reservations'].includes(t))).toEqual([]);
  });
});
