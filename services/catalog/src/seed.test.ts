import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@dme/contracts';
import { DEMO_PRODUCTS, seedCatalog } from './seed';
import { startCatalog, type CatalogHarness } from './test/harness';

let h: CatalogHarness;
beforeAll(async () => {
  h = await startCatalog();
});
afterAll(() => h?.close());

describe('demo seed', () => {
  it('creates the demo bins, products and stock once (idempotent), through the domain functions', async () => {
    const images: string[] = [];
    const imageFor = (key: string) => {
      images.push(key);
      return `/api/uploads/${Buffer.from(key).toString('hex').slice(0, 32).padEnd(32, '0')}.png`;
    };
    const first = await seedCatalog(h.orm.em.fork(), { imageFor });
    expect(first).toEqual(DEMO_PRODUCTS.map((p) => p.name));
    const second = await seedCatalog(h.orm.em.fork(), { imageFor });
    expect(second).toEqual([]);

    const list = await h.api.get('/api/admin/products?limit=100', { as: h.staff });
    expect(list.body.total).toBe(DEMO_PRODUCTS.length);
    const byName = new Map<string, Product>(list.body.items.map((p: Product) => [p.name, p]));
    for (const seed of DEMO_PRODUCTS) {
      const p = byName.get(seed.name)!;
      const expected = typeof seed.stock === 'number' ? seed.stock : seed.stock.reduce((a, [, , n]) => a + n, 0);
      expect(p.quantity, seed.name).toBe(expected);
      expect(p.availableQuantity, seed.name).toBe(expected);
    }
    const chair = byName.get('Wheelchair')!;
    expect(chair.variants.map((v) => v.name)).toEqual(['Standard', 'Heavy-duty']);
    expect(chair.variants[0]!.subVariants.map((s) => s.name)).toEqual(['16 in seat', '18 in seat']);

    const rent = await h.api.get('/api/products?type=FOR_RENT');
    expect(rent.body.items.map((c: { name: string }) => c.name).sort()).toEqual(
      ['Hospital Bed', 'Nebulizer', 'Oxygen Concentrator', 'Patient Lift', 'Walker', 'Wheelchair'],
    );
    expect(rent.body.items.find((c: { name: string }) => c.name === 'Wheelchair')).toMatchObject({ priceMin: '15.00', priceMax: '24.00', inStock: true });
    const sale = await h.api.get('/api/products?type=FOR_SALE');
    expect(sale.body.items.map((c: { name: string }) => c.name).sort()).toEqual(
      ['Digital Stethoscope', 'Glass Mask', 'Gloves', 'Non-contact Thermometer', 'Sphygmomanometer', 'Thermometer'],
    );
    const bins = await h.api.get('/api/warehouse-bins', { as: h.staff });
    expect(bins.body.total).toBe(4);
    // One stock_added event per seeded stock line, each in the outbox.
    const [events] = await h.orm.em.fork().execute<Array<{ n: number }>>(`select count(*)::int as n from catalog.outbox where subject = 'dme.catalog.stock_added'`);
    const lines = DEMO_PRODUCTS.reduce((a, p) => a + (typeof p.stock === 'number' ? 1 : p.stock.length), 0);
    expect(events!.n).toBe(lines);
    expect(images).toHaveLength(DEMO_PRODUCTS.length);
  });
});
