import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_MESSAGES } from '@dme/contracts';
import { simpleProduct, startCatalog, type CatalogHarness } from '../../test/harness';

let h: CatalogHarness;
beforeAll(async () => {
  h = await startCatalog();
});
afterAll(() => h?.close());

const binCount = async () => (await h.orm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from catalog.warehouse_bins'))[0]!.n;

describe('warehouse bins', () => {
  it('creates, lists, gets and edits a bin', async () => {
    const created = await h.api.post('/api/warehouse-bins', { name: 'A-01 Mobility', description: 'Aisle A, shelf 1' }, { as: h.staff });
    expect(created.status).toBe(201);
    expect(created.body.bin).toMatchObject({ name: 'A-01 Mobility', description: 'Aisle A, shelf 1', stockCount: 0 });
    const id = created.body.bin.id;
    const list = await h.api.get('/api/warehouse-bins', { as: h.staff });
    expect(list.body.items.map((b: { id: string }) => b.id)).toContain(id);
    expect((await h.api.get(`/api/warehouse-bins/${id}`, { as: h.staff })).body.bin.name).toBe('A-01 Mobility');
    const edited = await h.api.patch(`/api/warehouse-bins/${id}`, { name: 'A-01 Wheelchairs', description: 'Aisle A' }, { as: h.staff });
    expect(edited.body.bin).toMatchObject({ name: 'A-01 Wheelchairs', description: 'Aisle A' });
  });

  it('needs a name and a description (400 with the spec messages, nothing created)', async () => {
    const before = await binCount();
    const res = await h.api.post('/api/warehouse-bins', { name: ' ', description: '' }, { as: h.staff });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'name', message: 'Please input Bin Name!' },
      { field: 'description', message: 'Please input Description!' },
    ]);
    expect(await binCount()).toBe(before);
  });

  it('refuses a second bin with the same name, whatever its case (409)', async () => {
    await h.api.post('/api/warehouse-bins', { name: 'C-01', description: 'x' }, { as: h.staff });
    const again = await h.api.post('/api/warehouse-bins', { name: 'c-01', description: 'y' }, { as: h.staff });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(CATALOG_MESSAGES.bin.nameTaken);
  });

  it('deletes an empty bin; a bin holding stock is refused with 409 and kept', async () => {
    const empty = (await h.api.post('/api/warehouse-bins', { name: 'Empty bin', description: 'x' }, { as: h.staff })).body.bin;
    expect((await h.api.del(`/api/warehouse-bins/${empty.id}`, { as: h.staff })).status).toBe(204);
    expect((await h.api.get(`/api/warehouse-bins/${empty.id}`, { as: h.staff })).status).toBe(404);

    const full = (await h.api.post('/api/warehouse-bins', { name: 'Full bin', description: 'x' }, { as: h.staff })).body.bin;
    const product = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product;
    expect((await h.api.post('/api/stocks', { productID: product.id, warehouseBinID: full.id, quantity: 2 }, { as: h.staff })).status).toBe(201);
    const refused = await h.api.del(`/api/warehouse-bins/${full.id}`, { as: h.staff });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(CATALOG_MESSAGES.bin.holdsStock);
    const kept = await h.api.get(`/api/warehouse-bins/${full.id}`, { as: h.staff });
    expect(kept.body.bin.stockCount).toBe(2);
    const stocks = await h.api.get(`/api/warehouse-bins/${full.id}/stocks`, { as: h.staff });
    expect(stocks.body.total).toBe(2);
    expect(stocks.body.items.every((s: { warehouseBin: { name: string } }) => s.warehouseBin.name === 'Full bin')).toBe(true);
  });

  it('an edit follows the same rules: 400 with the spec messages or 409 on a taken name, and the bin is unchanged', async () => {
    const bin = (await h.api.post('/api/warehouse-bins', { name: 'E-01', description: 'Edit me' }, { as: h.staff })).body.bin;
    await h.api.post('/api/warehouse-bins', { name: 'E-02', description: 'Taken' }, { as: h.staff });
    const empty = await h.api.patch(`/api/warehouse-bins/${bin.id}`, { name: '', description: '  ' }, { as: h.staff });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([
      { field: 'name', message: 'Please input Bin Name!' },
      { field: 'description', message: 'Please input Description!' },
    ]);
    const taken = await h.api.patch(`/api/warehouse-bins/${bin.id}`, { name: 'e-02', description: 'x' }, { as: h.staff });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe(CATALOG_MESSAGES.bin.nameTaken);
    expect((await h.api.get(`/api/warehouse-bins/${bin.id}`, { as: h.staff })).body.bin).toMatchObject({ name: 'E-01', description: 'Edit me' });
    // Its own name in another case is fine.
    expect((await h.api.patch(`/api/warehouse-bins/${bin.id}`, { name: 'e-01', description: 'Edit me' }, { as: h.staff })).status).toBe(200);
  });

  it('a delete racing an Add Stock into the same bin never loses stock and never fails with 500', async () => {
    for (let round = 0; round < 5; round++) {
      const bin = (await h.api.post('/api/warehouse-bins', { name: `Race ${round}`, description: 'x' }, { as: h.staff })).body.bin;
      const product = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product;
      const [added, deleted] = await Promise.all([
        h.api.post('/api/stocks', { productID: product.id, warehouseBinID: bin.id, quantity: 3 }, { as: h.staff }),
        h.api.del(`/api/warehouse-bins/${bin.id}`, { as: h.staff }),
      ]);
      if (added.status === 201) {
        expect(deleted.status).toBe(409);
        expect((await h.api.get(`/api/warehouse-bins/${bin.id}`, { as: h.staff })).body.bin.stockCount).toBe(3);
      } else {
        expect(added.status).toBe(400);
        expect(added.body.detail).toBe(CATALOG_MESSAGES.stock.unknownBin);
        expect(deleted.status).toBe(204);
      }
    }
  });

  it('only warehouse staff and the superadmin manage bins', async () => {
    const bin = (await h.api.post('/api/warehouse-bins', { name: 'Guarded', description: 'x' }, { as: h.staff })).body.bin;
    for (const as of [h.customer, h.accounting]) {
      expect((await h.api.post('/api/warehouse-bins', { name: 'Nope', description: 'x' }, { as })).status).toBe(403);
      expect((await h.api.patch(`/api/warehouse-bins/${bin.id}`, { name: 'Nope', description: 'x' }, { as })).status).toBe(403);
      expect((await h.api.del(`/api/warehouse-bins/${bin.id}`, { as })).status).toBe(403);
      expect((await h.api.get('/api/warehouse-bins', { as })).status).toBe(403);
      expect((await h.api.get(`/api/warehouse-bins/${bin.id}/stocks`, { as })).status).toBe(403);
    }
    expect((await h.api.get(`/api/warehouse-bins/${bin.id}`, { as: h.staff })).body.bin.name).toBe('Guarded');
    expect((await h.api.get('/api/warehouse-bins')).status).toBe(401);
    expect((await h.api.post('/api/warehouse-bins', { name: 'By admin', description: 'x' }, { as: h.admin })).status).toBe(201);
  });
});
