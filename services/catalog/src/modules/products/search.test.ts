import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_MESSAGES } from '@dme/contracts';
import { simpleProduct, startCatalog, wheelchair, type CatalogHarness } from '../../test/harness';

/**
 * The shop's search and filters (issue 27) on its own database: ranked full text over name, brand
 * and description, typo-tolerant on name and brand, and filters by type, price and availability.
 */
let h: CatalogHarness;
const ids: Record<string, string> = {};
beforeAll(async () => {
  h = await startCatalog();
  const bin = (await h.api.post('/api/warehouse-bins', { name: 'Main', description: 'Main bin' }, { as: h.staff })).body.bin.id;
  const make = async (key: string, body: Record<string, unknown>) => {
    const res = await h.api.post('/api/products', body, { as: h.staff });
    expect(res.status).toBe(201);
    ids[key] = res.body.product.id;
    return res.body.product;
  };
  // 15.00–24.00 a day, 2 units in stock (of its last sub-variant).
  const chair = await make('chair', wheelchair({ name: 'Wheelchair', brand: 'Drive Medical', description: 'Lightweight folding frame for daily use.' }));
  await h.api.post('/api/stocks', { productID: chair.id, warehouseBinID: bin, quantity: 2, productVariantID: chair.variants[1].id, productSubVariantID: chair.variants[1].subVariants[1].id }, { as: h.staff });
  // A wheelchair only in the description; 8.00 a day, none in stock.
  await make('cushion', wheelchair({ name: 'Seat Cushion', brand: 'Roho', description: 'Pressure relief cushion for a wheelchair seat.', price: '8.00', variants: [] }));
  // 40.00 a day, 1 in stock.
  const bed = await make('bed', wheelchair({ name: 'Hospital Bed', brand: 'Invacare', description: 'Electric bed with side rails.', price: '40.00', variants: [] }));
  await h.api.post('/api/stocks', { productID: bed.id, warehouseBinID: bin, quantity: 1 }, { as: h.staff });
  // For sale: 12.99, none in stock; 30.00, 3 in stock.
  await make('thermo', simpleProduct({ name: 'Digital Thermometer', brand: 'Omron', description: 'Reads in ten seconds.' }));
  const walker = await make('walker', simpleProduct({ name: 'Folding Walker', brand: 'Drive Medical', description: 'Aluminium walker with wheels.', price: '30.00' }));
  await h.api.post('/api/stocks', { productID: walker.id, warehouseBinID: bin, quantity: 3 }, { as: h.staff });
});
afterAll(() => h?.close());

const search = async (qs: string) => {
  const res = await h.api.get(`/api/products?${qs}`);
  expect(res.status).toBe(200);
  return { names: res.body.items.map((c: { id: string }) => Object.keys(ids).find((k) => ids[k] === c.id)), total: res.body.total as number };
};

describe('shop search', () => {
  it("uses its indexes for products just added: they go straight into the indexes (no pending list that the planner would price as a whole-table scan)", async () => {
    const em = h.orm.em.fork();
    const options = await em.execute<Array<{ relname: string; reloptions: string[] | null }>>(
      `select relname, reloptions from pg_class where relname in ('products_search_doc_idx', 'products_search_trgm_idx') order by relname`,
    );
    expect(options).toEqual([
      { relname: 'products_search_doc_idx', reloptions: ['fastupdate=off'] },
      { relname: 'products_search_trgm_idx', reloptions: ['fastupdate=off'] },
    ]);
    // The products made above wait in no pending list (with GIN's fast update each index would
    // hold them there until a vacuum: gin_clean_pending_list would move at least one page).
    const pending = await em.execute<Array<{ pages: string }>>(
      `select gin_clean_pending_list('catalog.products_search_doc_idx'::regclass) + gin_clean_pending_list('catalog.products_search_trgm_idx'::regclass) as pages`,
    );
    expect(pending).toEqual([{ pages: '0' }]);
  });

  it('a typo ("weelchair") finds the wheelchair, ranked before a product that only mentions it', async () => {
    expect((await search('search=weelchair')).names[0]).toBe('chair');
    // The word itself: the product named so first, then the one whose description mentions it.
    expect(await search('search=wheelchair')).toEqual({ names: ['chair', 'cushion'], total: 2 });
  });

  it('finds a word of the description (stemmed), a part of a name, and a brand', async () => {
    expect((await search('search=rails')).names).toEqual(['bed']);
    expect((await search('search=seconds')).names).toEqual(['thermo']);
    expect((await search('search=chair')).names).toContain('chair');
    expect((await search('search=drive%20medical')).names.sort()).toEqual(['chair', 'walker']);
    expect((await search('search=omron')).names).toEqual(['thermo']);
  });

  it('every word of a search must be found (a typo in one still counts); a stop word is passed over', async () => {
    expect((await search('search=drive%20walker')).names).toEqual(['walker']);
    expect((await search('search=drive%20walkr')).names).toEqual(['walker']);
    expect((await search('search=walker%20for%20the%20elderly')).names).toEqual([]);
    expect((await search('search=folding%20walker%20with')).names).toEqual(['walker']);
  });

  it('filters combine with each other and with the search', async () => {
    expect((await search('type=FOR_RENT&available=true')).names).toEqual(['bed', 'chair']);
    expect((await search('type=FOR_RENT&minPrice=20&maxPrice=50')).names).toEqual(['bed', 'chair']);
    // A price the customer can pick in range: the wheelchair's 15.00–24.00 overlaps 9–16.
    expect((await search('minPrice=9&maxPrice=16')).names).toEqual(['thermo', 'chair']);
    expect((await search('minPrice=9&maxPrice=16&available=true')).names).toEqual(['chair']);
    expect((await search('search=drive&type=FOR_SALE&available=true&maxPrice=30.00')).names).toEqual(['walker']);
    expect((await search('search=weelchair&type=FOR_RENT&available=true&maxPrice=15')).names).toEqual(['chair']);
    expect(await search('search=weelchair&type=FOR_SALE')).toEqual({ names: [], total: 0 });
  });

  it('an empty result is an empty page with total 0; paging keeps the rank order', async () => {
    expect(await search('search=zzzqqq')).toEqual({ names: [], total: 0 });
    expect(await search('type=FOR_SALE&minPrice=999')).toEqual({ names: [], total: 0 });
    const first = await search('search=wheelchair&limit=1&offset=0');
    const second = await search('search=wheelchair&limit=1&offset=1');
    expect([...first.names, ...second.names]).toEqual(['chair', 'cushion']);
    expect(first.total).toBe(2);
  });

  it('without a search the order is by name, as before', async () => {
    expect((await search('type=FOR_RENT')).names).toEqual(['bed', 'cushion', 'chair']);
  });

  it('bad filters are 400 problems naming the field, never a 500', async () => {
    for (const [qs, field, message] of [
      ['minPrice=abc', 'minPrice', CATALOG_MESSAGES.product.badMoney],
      ['maxPrice=1.999', 'maxPrice', CATALOG_MESSAGES.product.badMoney],
      ['minPrice=-1', 'minPrice', CATALOG_MESSAGES.product.badMoney],
      ['minPrice=50&maxPrice=10', 'maxPrice', CATALOG_MESSAGES.search.priceOrder],
      ['available=yes', 'available', undefined],
    ] as const) {
      const res = await h.api.get(`/api/products?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      if (message) expect(res.body.errors).toContainEqual({ field, message });
    }
    // Text search syntax is never an error: quotes, operators and stop words only.
    for (const s of ['"wheel', 'or -', 'the', '!!&|', "o'brien", '%_\\']) expect((await h.api.get(`/api/products?search=${encodeURIComponent(s)}`)).status).toBe(200);
  });
});
