import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { CATALOG_MESSAGES, RENTAL_TERMS_MESSAGES } from '@dme/contracts';
import { bookRentalOrders } from '../bookings/book-rentals';
import { simpleProduct, startCatalog, wheelchair, type CatalogHarness } from '../../test/harness';

let h: CatalogHarness;
let binId: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'Main', description: 'Main bin' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());

const productCount = async () => (await h.orm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from catalog.products'))[0]!.n;
const create = async (body: Record<string, unknown>) => h.api.post('/api/products', body, { as: h.staff });

describe('create products', () => {
  it('creates a rental product with 2 variants × 2 sub-variants, each with its own price and fee', async () => {
    const res = await create(wheelchair());
    expect(res.status).toBe(201);
    const p = res.body.product;
    expect(p).toMatchObject({ type: 'FOR_RENT', price: '15.00', damageCharges: '120.00', priceMin: '15.00', priceMax: '24.00', archived: false });
    expect(p.variants.map((v: { name: string }) => v.name)).toEqual(['Standard', 'Heavy-duty']);
    expect(p.variants[0].price).toBeNull();
    expect(p.variants[1].subVariants.map((s: { name: string; price: string }) => [s.name, s.price])).toEqual([
      ['20 in', '22.00'],
      ['22 in', '24.00'],
    ]);
    const events = await h.orm.em.fork().execute<Array<{ subject: string }>>(`select subject from catalog.outbox where payload->>'aggregateId' = ?`, [p.id]);
    expect(events.map((e) => e.subject)).toEqual(['dme.catalog.product_created']);
  });

  it.each([
    ['brand', 'Please input Brand!'],
    ['name', 'Please input Product Name!'],
    ['description', 'Please input Description!'],
    ['type', 'Please input Type!'],
    ['image', 'Please upload image'],
    ['price', 'Please input Price!'],
    ['damageCharges', 'Please input Damage of Lost Fee!'],
  ])('%s is required: 400 with its message, nothing created', async (field, message) => {
    const before = await productCount();
    const { [field as 'brand']: _drop, ...rest } = simpleProduct();
    const res = await create(rest);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message });
    expect(await productCount()).toBe(before);
  });

  it('refuses amounts with more than two decimals or below zero', async () => {
    for (const price of ['12.999', '-1.00', 'abc']) {
      const res = await create(simpleProduct({ price }));
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual({ field: 'price', message: CATALOG_MESSAGES.product.badMoney });
    }
  });

  it('the image must name an upload that exists: an unknown, malformed or traversing path is 400 on image and creates nothing', async () => {
    const before = await productCount();
    for (const image of [`/api/uploads/${'a'.repeat(32)}.png`, '/api/uploads/doesnotexist.png', '/api/uploads/..', `/api/uploads/${'x'.repeat(400)}.png`]) {
      const res = await create(simpleProduct({ image }));
      expect(res.status, image).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('image');
    }
    expect(await productCount()).toBe(before);
    const p = (await create(simpleProduct())).body.product;
    const edit = await h.api.patch(`/api/products/${p.id}`, simpleProduct({ image: `/api/uploads/${'b'.repeat(32)}.jpg` }), { as: h.staff });
    expect(edit.status).toBe(400);
    expect(edit.body.errors[0].field).toBe('image');
  });

  it('variant names are unique (case-insensitive), sub-variant names unique within their variant', async () => {
    const before = await productCount();
    const dupVariants = await create(wheelchair({ variants: [{ name: 'Std', price: '1.00', damageCharges: '1.00' }, { name: 'STD', price: '1.00', damageCharges: '1.00' }] }));
    expect(dupVariants.status).toBe(400);
    expect(dupVariants.body.errors).toContainEqual({ field: 'variants', message: CATALOG_MESSAGES.product.variantNamesUnique });
    const dupSubs = await create(
      wheelchair({ variants: [{ name: 'A', subVariants: [{ name: 'x', price: '1', damageCharges: '1' }, { name: 'X ', price: '1', damageCharges: '1' }] }] }),
    );
    expect(dupSubs.status).toBe(400);
    expect(dupSubs.body.errors).toContainEqual({ field: 'variants.0.subVariants', message: CATALOG_MESSAGES.product.subVariantNamesUnique });
    // The same sub-variant name under two variants is fine.
    const ok = await create(wheelchair({ variants: [{ name: 'A', subVariants: [{ name: 'x', price: '1', damageCharges: '1' }] }, { name: 'B', subVariants: [{ name: 'x', price: '2', damageCharges: '1' }] }] }));
    expect(ok.status).toBe(201);
    expect(await productCount()).toBe(before + 1);
  });

  it.each([
    [[{ name: '', price: '1.00', damageCharges: '1.00' }], 'variants.0.name', CATALOG_MESSAGES.product.variantName],
    [[{ name: 'A', subVariants: [{ name: ' ', price: '1.00', damageCharges: '1.00' }] }], 'variants.0.subVariants.0.name', CATALOG_MESSAGES.product.subVariantName],
    [[{ name: 'A', subVariants: [{ name: 'x', damageCharges: '1.00' }] }], 'variants.0.subVariants.0.price', CATALOG_MESSAGES.product.subVariantPrice],
    [[{ name: 'A', subVariants: [{ name: 'x', price: '1.00' }] }], 'variants.0.subVariants.0.damageCharges', CATALOG_MESSAGES.product.subVariantPrice],
    [[{ name: 'A', subVariants: [{ name: 'x', price: '1.001', damageCharges: '1.00' }] }], 'variants.0.subVariants.0.price', CATALOG_MESSAGES.product.badMoney],
    [[{ name: 'A', price: '-2.00', damageCharges: '1.00' }], 'variants.0.price', CATALOG_MESSAGES.product.badMoney],
  ] as Array<[unknown[], string, string]>)('variant rule %#: 400 on %s with its message, nothing created', async (variants, field, message) => {
    const before = await productCount();
    const res = await create(wheelchair({ variants }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message });
    expect(await productCount()).toBe(before);
  });

  it('a variant without sub-variants needs its own price and fee', async () => {
    const res = await create(wheelchair({ variants: [{ name: 'Only', subVariants: [] }] }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: 'variants.0.price', message: CATALOG_MESSAGES.product.variantPrice });
  });
});

describe('edit products', () => {
  it('keeps variant ids, adds new ones, renames later ones and swaps names', async () => {
    const p = (await create(wheelchair({ variants: [
      { name: 'One', price: '1.00', damageCharges: '1.00' },
      { name: 'Two', price: '2.00', damageCharges: '1.00' },
      { name: 'Three', price: '3.00', damageCharges: '1.00' },
    ] }))).body.product;
    const [one, two, three] = p.variants;
    const res = await h.api.patch(`/api/products/${p.id}`, {
      ...wheelchair({ name: p.name }),
      variants: [
        { id: one.id, name: 'One', price: '1.50', damageCharges: '1.00' },
        { id: two.id, name: 'Three', price: '2.00', damageCharges: '1.00' },
        { id: three.id, name: 'Two', price: '3.00', damageCharges: '1.00' },
        { name: 'Four', price: '4.00', damageCharges: '2.00' },
      ],
    }, { as: h.staff });
    expect(res.status).toBe(200);
    const v = res.body.product.variants;
    expect(v.map((x: { id: string; name: string }) => [x.id, x.name])).toEqual([
      [one.id, 'One'],
      [two.id, 'Three'],
      [three.id, 'Two'],
      [expect.any(String), 'Four'],
    ]);
    expect(v[0].price).toBe('1.50');
    expect(res.body.product.priceMax).toBe('4.00');
  });

  it('the first variant cannot be renamed', async () => {
    const p = (await create(wheelchair())).body.product;
    const variants = p.variants.map((v: { id: string; name: string; subVariants: Array<{ id: string; name: string; price: string; damageCharges: string }> }) => ({
      id: v.id, name: v.name, subVariants: v.subVariants.map((s) => ({ id: s.id, name: s.name, price: s.price, damageCharges: s.damageCharges })),
    }));
    variants[0].name = 'Renamed';
    const res = await h.api.patch(`/api/products/${p.id}`, { ...wheelchair({ name: p.name }), variants }, { as: h.staff });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(CATALOG_MESSAGES.product.firstVariantRename);
    expect((await h.api.get(`/api/products/${p.id}`)).body.product.variants[0].name).toBe('Standard');
  });

  it('a variant with stock cannot be removed (409); without stock it can', async () => {
    const p = (await create(wheelchair())).body.product;
    const [standard, heavy] = p.variants;
    await h.api.post('/api/stocks', { productID: p.id, warehouseBinID: binId, quantity: 1, productVariantID: heavy.id, productSubVariantID: heavy.subVariants[0].id }, { as: h.staff });
    const keepStandardOnly = { ...wheelchair({ name: p.name }), variants: [{ id: standard.id, name: 'Standard', subVariants: standard.subVariants.map((s: { id: string; name: string }) => ({ id: s.id, name: s.name, price: '15.00', damageCharges: '120.00' })) }] };
    const refused = await h.api.patch(`/api/products/${p.id}`, keepStandardOnly, { as: h.staff });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(CATALOG_MESSAGES.product.variantHasStock);
    expect((await h.api.get(`/api/products/${p.id}`)).body.product.variants).toHaveLength(2);
    const keepHeavyOnly = { ...wheelchair({ name: p.name }), variants: [{ id: heavy.id, name: 'Heavy-duty', subVariants: heavy.subVariants.map((s: { id: string; name: string }) => ({ id: s.id, name: s.name, price: '22.00', damageCharges: '180.00' })) }] };
    // The first variant (Standard) goes away; Heavy-duty is kept with its stock.
    const ok = await h.api.patch(`/api/products/${p.id}`, keepHeavyOnly, { as: h.staff });
    expect(ok.status).toBe(200);
    expect(ok.body.product.variants.map((v: { id: string }) => v.id)).toEqual([heavy.id]);
    expect(ok.body.product.quantity).toBe(1);
  });

  it('records product_updated with the new snapshot; a refused edit records nothing and changes nothing', async () => {
    const p = (await create(wheelchair())).body.product;
    const body = (variants: unknown[]) => ({ ...wheelchair({ name: p.name, price: '17.00' }), variants });
    const keep = p.variants.map((v: { id: string; name: string; subVariants: Array<{ id: string; name: string; price: string; damageCharges: string }> }) => ({
      id: v.id, name: v.name, subVariants: v.subVariants.map((x) => ({ id: x.id, name: x.name, price: x.price, damageCharges: x.damageCharges })),
    }));
    const dup = await h.api.patch(`/api/products/${p.id}`, body([...keep, { name: 'standard', price: '1.00', damageCharges: '1.00' }]), { as: h.staff });
    expect(dup.status).toBe(400);
    expect(dup.body.errors).toContainEqual({ field: 'variants', message: CATALOG_MESSAGES.product.variantNamesUnique });
    const after = (await h.api.get(`/api/products/${p.id}`)).body.product;
    expect(after.variants).toHaveLength(2);
    expect(after.price).toBe('15.00');
    const subjects = async () =>
      (await h.orm.em.fork().execute<Array<{ subject: string; payload: { data: { price: string; variants: Array<{ id: string }> } } }>>(
        `select subject, payload from catalog.outbox where payload->>'aggregateId' = ? order by created_at, id`,
        [p.id],
      ));
    expect((await subjects()).map((e) => e.subject)).toEqual(['dme.catalog.product_created']);
    const ok = await h.api.patch(`/api/products/${p.id}`, body(keep), { as: h.staff });
    expect(ok.status).toBe(200);
    const events = await subjects();
    expect(events.map((e) => e.subject)).toEqual(['dme.catalog.product_created', 'dme.catalog.product_updated']);
    expect(events[1]!.payload.data.price).toBe('17.00');
    expect(events[1]!.payload.data.variants.map((v) => v.id)).toEqual(p.variants.map((v: { id: string }) => v.id));
  });

  it('an edit removing a variant while stock is added to it: one of them wins cleanly, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const p = (await create(wheelchair({ variants: [
        { name: 'Keep', price: '1.00', damageCharges: '1.00' },
        { name: 'Drop', price: '2.00', damageCharges: '1.00' },
      ] }))).body.product;
      const [keep, drop] = p.variants;
      const [added, edited] = await Promise.all([
        h.api.post('/api/stocks', { productID: p.id, warehouseBinID: binId, quantity: 2, productVariantID: drop.id }, { as: h.staff }),
        h.api.patch(`/api/products/${p.id}`, { ...wheelchair({ name: p.name }), variants: [{ id: keep.id, name: 'Keep', price: '1.00', damageCharges: '1.00' }] }, { as: h.staff }),
      ]);
      const after = (await h.api.get(`/api/admin/products/${p.id}`, { as: h.staff })).body.product;
      if (added.status === 201) {
        expect(edited.status).toBe(409);
        expect(after.variants.map((v: { id: string }) => v.id)).toEqual([keep.id, drop.id]);
        expect(after.quantity).toBe(2);
      } else {
        expect(added.status).toBe(400);
        expect(added.body.detail).toBe(CATALOG_MESSAGES.stock.unknownVariant);
        expect(edited.status).toBe(200);
        expect(after.variants.map((v: { id: string }) => v.id)).toEqual([keep.id]);
        expect(after.quantity).toBe(0);
      }
    }
  });

  it('an unknown product is 404, and a bad body changes nothing', async () => {
    expect((await h.api.patch('/api/products/7f1a1f40-0000-4000-8000-000000000000', simpleProduct(), { as: h.staff })).status).toBe(404);
    const p = (await create(simpleProduct())).body.product;
    expect((await h.api.patch(`/api/products/${p.id}`, { ...simpleProduct(), price: '' }, { as: h.staff })).status).toBe(400);
    expect((await h.api.get(`/api/products/${p.id}`)).body.product.price).toBe('12.99');
  });
});

describe('delete products', () => {
  it('deletes a product without stock', async () => {
    const p = (await create(simpleProduct())).body.product;
    const res = await h.api.del(`/api/products/${p.id}`, { as: h.staff });
    expect(res.body.result).toBe('deleted');
    expect((await h.api.get(`/api/admin/products/${p.id}`, { as: h.staff })).status).toBe(404);
  });

  it('records product_deleted or product_archived in the outbox with the change', async () => {
    const gone = (await create(simpleProduct())).body.product;
    const kept = (await create(simpleProduct())).body.product;
    await h.api.post('/api/stocks', { productID: kept.id, warehouseBinID: binId, quantity: 1 }, { as: h.staff });
    await h.api.del(`/api/products/${gone.id}`, { as: h.staff });
    await h.api.del(`/api/products/${kept.id}`, { as: h.staff });
    const events = async (id: string) =>
      (await h.orm.em.fork().execute<Array<{ subject: string; payload: { data: unknown } }>>(
        `select subject, payload from catalog.outbox where payload->>'aggregateId' = ? order by created_at, id`,
        [id],
      ));
    expect((await events(gone.id)).map((e) => e.subject)).toEqual(['dme.catalog.product_created', 'dme.catalog.product_deleted']);
    const archived = await events(kept.id);
    expect(archived.map((e) => e.subject)).toEqual(['dme.catalog.product_created', 'dme.catalog.stock_added', 'dme.catalog.product_archived']);
    expect(archived[2]!.payload.data).toEqual({ productId: kept.id });
    // Deleting again: the archived product is not there for delete (404), nothing recorded.
    expect((await h.api.del(`/api/products/${kept.id}`, { as: h.staff })).status).toBe(404);
    expect(await events(kept.id)).toHaveLength(3);
  });

  it('a delete racing an Add Stock: either the stock is added and the product archived, or it is deleted and the stock refused', async () => {
    for (let round = 0; round < 5; round++) {
      const p = (await create(simpleProduct())).body.product;
      const [added, deleted] = await Promise.all([
        h.api.post('/api/stocks', { productID: p.id, warehouseBinID: binId, quantity: 2 }, { as: h.staff }),
        h.api.del(`/api/products/${p.id}`, { as: h.staff }),
      ]);
      expect(deleted.status).toBe(200);
      if (added.status === 201) expect(deleted.body.result).toBe('archived');
      else {
        expect(added.status).toBe(404);
        expect(deleted.body.result).toBe('deleted');
      }
    }
  });

  it('archives a product with stock: hidden from the shop, kept for staff, no new stock', async () => {
    const p = (await create(simpleProduct({ name: 'Archive me' }))).body.product;
    await h.api.post('/api/stocks', { productID: p.id, warehouseBinID: binId, quantity: 3 }, { as: h.staff });
    const res = await h.api.del(`/api/products/${p.id}`, { as: h.staff });
    expect(res.body).toEqual({ result: 'archived', message: CATALOG_MESSAGES.product.archived });
    expect((await h.api.get(`/api/products/${p.id}`)).status).toBe(404);
    expect((await h.api.get('/api/products?search=Archive%20me')).body.items).toHaveLength(0);
    const staff = await h.api.get(`/api/admin/products/${p.id}`, { as: h.staff });
    expect(staff.body.product).toMatchObject({ archived: true, quantity: 3 });
    expect((await h.api.get('/api/admin/products?search=Archive%20me', { as: h.staff })).body.items).toHaveLength(0);
    expect((await h.api.get('/api/admin/products?search=Archive%20me&includeArchived=true', { as: h.staff })).body.items).toHaveLength(1);
    const more = await h.api.post('/api/stocks', { productID: p.id, warehouseBinID: binId, quantity: 1 }, { as: h.staff });
    expect(more.status).toBe(409);
    const stock = await h.api.get(`/api/stocks?productID=${p.id}`, { as: h.staff });
    expect(stock.body.total).toBe(3);
  });
});

describe('shop reads (public)', () => {
  it('the list shows the price range of the product as last edited, in name order across pages', async () => {
    const brand = `Range${Date.now()}`;
    const made = await create(wheelchair({ brand, name: 'B chair' }));
    expect(made.status).toBe(201);
    const chair = made.body.product;
    expect((await create(wheelchair({ brand, name: 'A chair', variants: [] }))).status).toBe(201);
    expect((await create(wheelchair({ brand, name: 'C chair', variants: [{ name: 'Standard', price: '12.00', damageCharges: '1.00' }, { name: 'Wide', price: '30.00', damageCharges: '1.00' }] }))).status).toBe(201);
    const card = async (name: string) => (await h.api.get(`/api/products?type=FOR_RENT&search=${brand}`)).body.items.find((c: { name: string }) => c.name === name);
    expect(await card('B chair')).toMatchObject({ priceMin: '15.00', priceMax: '24.00' });
    // Without variants: the product's price; variants without sub-variants: theirs.
    expect(await card('A chair')).toMatchObject({ priceMin: '15.00', priceMax: '15.00' });
    expect(await card('C chair')).toMatchObject({ priceMin: '12.00', priceMax: '30.00' });

    const edited = await h.api.patch(`/api/products/${chair.id}`, {
      ...wheelchair({ brand, name: 'B chair', price: '9.00' }),
      variants: [
        { id: chair.variants[0].id, name: 'Standard', subVariants: [{ id: chair.variants[0].subVariants[0].id, name: '16 in', price: '11.00', damageCharges: '1.00' }] },
        { name: 'Bariatric', price: '40.00', damageCharges: '1.00' },
      ],
    }, { as: h.staff });
    expect(edited.status).toBe(200);
    expect(await card('B chair')).toMatchObject({ priceMin: '11.00', priceMax: '40.00' });

    const names = [];
    for (let offset = 0; offset < 3; offset++) {
      const page = await h.api.get(`/api/products?type=FOR_RENT&search=${brand}&limit=1&offset=${offset}`);
      expect(page.body.total).toBe(3);
      names.push(page.body.items[0].name);
    }
    expect(names).toEqual(['A chair', 'B chair', 'C chair']);
    const past = await h.api.get(`/api/products?type=FOR_RENT&search=${brand}&limit=1&offset=3`);
    expect(past.body).toEqual({ items: [], total: 3 });
  });

  it('lists by type with price ranges, In-Stock / Sold-Out and sold quantity; searches name or brand; pages', async () => {
    const brand = `Acme${Date.now()}`;
    const chair = (await create(wheelchair({ brand }))).body.product;
    const kit = (await create(simpleProduct({ brand, name: 'Gloves box' }))).body.product;
    const leaf = chair.variants[1].subVariants[1];
    await h.api.post('/api/stocks', { productID: chair.id, warehouseBinID: binId, quantity: 2, productVariantID: chair.variants[1].id, productSubVariantID: leaf.id }, { as: h.staff });

    const rent = await h.api.get(`/api/products?type=FOR_RENT&search=${brand.toLowerCase()}`);
    expect(rent.status).toBe(200);
    expect(rent.body.items).toEqual([
      { id: chair.id, name: chair.name, brand, image: chair.image, type: 'FOR_RENT', priceMin: '15.00', priceMax: '24.00', availableQuantity: 2, soldQuantity: 0, inStock: true },
    ]);
    const sale = await h.api.get(`/api/products?type=FOR_SALE&search=${brand}`);
    expect(sale.body.items).toEqual([expect.objectContaining({ id: kit.id, priceMin: '12.99', priceMax: '12.99', inStock: false, availableQuantity: 0 })]);
    expect((await h.api.get('/api/products?search=gloves%20BOX')).body.items.map((p: { id: string }) => p.id)).toContain(kit.id);

    const page1 = await h.api.get(`/api/products?search=${brand}&limit=1&offset=0`);
    const page2 = await h.api.get(`/api/products?search=${brand}&limit=1&offset=1`);
    expect(page1.body.total).toBe(2);
    expect(page1.body.items[0].id).not.toBe(page2.body.items[0].id);
    expect((await h.api.get('/api/products?limit=101')).status).toBe(400);
  });

  it('the detail has variants, sub-variants and their counts; an unknown id is 404', async () => {
    const p = (await create(wheelchair())).body.product;
    const res = await h.api.get(`/api/products/${p.id}`);
    expect(res.body.product.variants[0].subVariants[0]).toMatchObject({ name: '16 in', price: '15.00', availableQuantity: 0 });
    expect((await h.api.get('/api/products/7f1a1f40-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('permissions', () => {
  it('customers and accounting cannot write the catalog; staff and the superadmin can; anonymous reads the shop only', async () => {
    const p = (await create(simpleProduct())).body.product;
    for (const as of [h.customer, h.accounting]) {
      expect((await h.api.post('/api/products', simpleProduct(), { as })).status).toBe(403);
      expect((await h.api.patch(`/api/products/${p.id}`, simpleProduct(), { as })).status).toBe(403);
      expect((await h.api.del(`/api/products/${p.id}`, { as })).status).toBe(403);
      expect((await h.api.post('/api/stocks', { productID: p.id, warehouseBinID: binId, quantity: 1 }, { as })).status).toBe(403);
      expect((await h.api.get('/api/admin/products', { as })).status).toBe(403);
    }
    expect((await h.api.post('/api/products', simpleProduct(), { as: h.admin })).status).toBe(201);
    expect((await h.api.get('/api/products')).status).toBe(200);
    expect((await h.api.get(`/api/products/${p.id}`)).status).toBe(200);
    expect((await h.api.get('/api/admin/products')).status).toBe(401);
    expect((await h.api.get('/api/stocks')).status).toBe(401);
    expect((await h.api.post('/api/products', simpleProduct())).status).toBe(401);
  });
});

describe('rental money terms (issue 29)', () => {
  const terms = { deposit: { kind: 'FIXED', amount: '500' }, lateFeePerDay: '50.00', graceDays: 2, lateFeeCap: { kind: 'DAYS', days: 10 } };

  it('a rental product keeps its terms; an edit without them keeps them, with null drops them; the order line gets them with its reservation', async () => {
    const res = await create(simpleProduct({ type: 'FOR_RENT', rentalTerms: terms }));
    expect(res.status).toBe(201);
    const saved = { deposit: { kind: 'FIXED', amount: '500.00' }, lateFeePerDay: '50.00', graceDays: 2, lateFeeCap: { kind: 'DAYS', days: 10 } };
    expect(res.body.product.rentalTerms).toEqual(saved);
    const id = res.body.product.id;
    await h.api.post('/api/stocks', { productID: id, warehouseBinID: binId, quantity: 1, productVariantID: null, productSubVariantID: null }, { as: h.staff });
    const [booked] = await bookRentalOrders(h.orm.em.fork(), [
      { orderId: randomUUID(), orderType: 'RENT', lines: [{ ref: 0, productID: id, productVariantID: null, productSubVariantID: null, quantity: 1 }] },
    ]);
    expect(booked).toMatchObject({ lines: [{ ref: 0, rentalTerms: saved }] });

    const kept = await h.api.patch(`/api/products/${id}`, simpleProduct({ type: 'FOR_RENT', name: 'Renamed' }), { as: h.staff });
    expect(kept.status).toBe(200);
    expect(kept.body.product.rentalTerms).toEqual(saved);
    const percent = await h.api.patch(`/api/products/${id}`, simpleProduct({ type: 'FOR_RENT', rentalTerms: { deposit: { kind: 'PERCENT', percent: 25 }, lateFeePerDay: '0' } }), { as: h.staff });
    expect(percent.body.product.rentalTerms).toEqual({ deposit: { kind: 'PERCENT', percent: 25 }, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null });
    const none = await h.api.patch(`/api/products/${id}`, simpleProduct({ type: 'FOR_RENT', rentalTerms: null }), { as: h.staff });
    expect(none.body.product.rentalTerms).toBeNull();
  });

  it('a product for sale has no rental terms, whatever is sent', async () => {
    const res = await create(simpleProduct({ type: 'FOR_SALE', rentalTerms: terms }));
    expect(res.status).toBe(201);
    expect(res.body.product.rentalTerms).toBeNull();
  });

  it.each([
    [{ deposit: { kind: 'PERCENT', percent: 0 } }, 'rentalTerms.deposit.percent', RENTAL_TERMS_MESSAGES.depositPercent],
    [{ deposit: { kind: 'PERCENT', percent: 12.5 } }, 'rentalTerms.deposit.percent', RENTAL_TERMS_MESSAGES.depositPercent],
    [{ deposit: { kind: 'FIXED', amount: '0.00' } }, 'rentalTerms.deposit.amount', RENTAL_TERMS_MESSAGES.depositAmount],
    [{ lateFeePerDay: '1.999' }, 'rentalTerms.lateFeePerDay', RENTAL_TERMS_MESSAGES.lateFee],
    [{ graceDays: 31 }, 'rentalTerms.graceDays', RENTAL_TERMS_MESSAGES.graceDays],
    [{ lateFeeCap: { kind: 'DAYS', days: 0 } }, 'rentalTerms.lateFeeCap.days', RENTAL_TERMS_MESSAGES.capDays],
  ])('bad terms %j: 400 on %s with its message, nothing created', async (bad, field, message) => {
    const before = await productCount();
    const res = await create(simpleProduct({ type: 'FOR_RENT', rentalTerms: bad }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message });
    expect(await productCount()).toBe(before);
  });
});
