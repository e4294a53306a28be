import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleProduct, startCatalog, wheelchair, type CatalogHarness } from '../../test/harness';

/** Every product event carries the product's version, bumped in the same transaction (DESIGN §7). */
let h: CatalogHarness;
let binId: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'Versions', description: 'bin' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());

async function events(productId: string) {
  return h.orm.em
    .fork()
    .execute<Array<{ subject: string; version: number }>>(
      `select subject, (payload->>'version')::int as version from catalog.outbox where payload->>'aggregateId' = ? order by seq`,
      [productId],
    );
}
const storedVersion = async (id: string) =>
  (await h.orm.em.fork().execute<Array<{ version: number }>>('select version from catalog.products where id = ?', [id]))[0]?.version;

describe('product versions', () => {
  it('created = 1, each update + 1, archive + 1; the row and the events agree', async () => {
    const p = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product;
    expect(await storedVersion(p.id)).toBe(1);
    for (const price of ['13.00', '14.00']) {
      const res = await h.api.patch(`/api/products/${p.id}`, simpleProduct({ name: p.name, price }), { as: h.staff });
      expect(res.status).toBe(200);
    }
    expect(await storedVersion(p.id)).toBe(3);
    await h.api.post('/api/stocks', { productID: p.id, warehouseBinID: binId, quantity: 1 }, { as: h.staff });
    const del = await h.api.del(`/api/products/${p.id}`, { as: h.staff });
    expect(del.status).toBeLessThan(300);
    expect(await storedVersion(p.id)).toBe(4);
    const product = (await events(p.id)).filter((e) => e.subject !== 'dme.catalog.stock_added');
    expect(product).toEqual([
      { subject: 'dme.catalog.product_created', version: 1 },
      { subject: 'dme.catalog.product_updated', version: 2 },
      { subject: 'dme.catalog.product_updated', version: 3 },
      { subject: 'dme.catalog.product_archived', version: 4 },
    ]);
  });

  it('a deleted product (no stock) gets one more version in its event', async () => {
    const p = (await h.api.post('/api/products', wheelchair(), { as: h.staff })).body.product;
    await h.api.patch(`/api/products/${p.id}`, wheelchair({ name: p.name, price: '16.00' }), { as: h.staff });
    const del = await h.api.del(`/api/products/${p.id}`, { as: h.staff });
    expect(del.status).toBeLessThan(300);
    expect(await storedVersion(p.id)).toBeUndefined();
    expect((await events(p.id)).map((e) => [e.subject, e.version])).toEqual([
      ['dme.catalog.product_created', 1],
      ['dme.catalog.product_updated', 2],
      ['dme.catalog.product_deleted', 3],
    ]);
  });

  it('a refused update does not bump the version', async () => {
    const p = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product;
    const bad = await h.api.patch(`/api/products/${p.id}`, simpleProduct({ name: p.name, price: '-1.00' }), { as: h.staff });
    expect(bad.status).toBe(400);
    expect(await storedVersion(p.id)).toBe(1);
  });

  it('concurrent updates get distinct, consecutive versions', async () => {
    const p = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => h.api.patch(`/api/products/${p.id}`, simpleProduct({ name: p.name, price: `${20 + i}.00` }), { as: h.staff })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const versions = (await events(p.id)).map((e) => e.version).sort((a, b) => a - b);
    expect(versions).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await storedVersion(p.id)).toBe(9);
  });
});
