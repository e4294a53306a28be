import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { CATALOG_MESSAGES, type Product, type StockCounts } from '@dme/contracts';
import { simpleProduct, startCatalog, wheelchair, type CatalogHarness } from '../../test/harness';
import { release, reserve } from '../reservations/reservation.service';

let h: CatalogHarness;
let binId: string;
let bin2: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'A-01', description: 'Mobility' }, { as: h.staff })).body.bin.id;
  bin2 = (await h.api.post('/api/warehouse-bins', { name: 'B-01', description: 'Respiratory' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());

const add = (body: Record<string, unknown>) => h.api.post('/api/stocks', body, { as: h.staff });
const product = async (id: string): Promise<Product> => (await h.api.get(`/api/admin/products/${id}`, { as: h.staff })).body.product;
const KEYS: Array<keyof StockCounts> = ['quantity', 'availableQuantity', 'rentedQuantity', 'damagedQuantity', 'lostQuantity', 'soldQuantity'];
const sum = (list: StockCounts[], k: keyof StockCounts) => list.reduce((a, c) => a + c[k], 0);
const stockRows = async () => (await h.orm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from catalog.stock_items'))[0]!.n;

function expectConsistent(p: Product): void {
  for (const k of KEYS) {
    expect(sum(p.variants, k), `product ${k}`).toBe(p.variants.length ? p[k] : sum(p.variants, k));
    for (const v of p.variants) if (v.subVariants.length) expect(sum(v.subVariants, k), `variant ${v.name} ${k}`).toBe(v[k]);
  }
}

describe('Add Stock', () => {
  it('creates serial-coded AVAILABLE items (inventory IN) in the bin, with a stock_added event', async () => {
    const p = (await h.api.post('/api/products', simpleProduct({ name: 'Nebulizer' }), { as: h.staff })).body.product;
    const res = await add({ productID: p.id, warehouseBinID: binId, quantity: 5 });
    expect(res.status).toBe(201);
    expect(res.body.items).toHaveLength(5);
    for (const item of res.body.items) {
      expect(item).toMatchObject({ status: 'AVAILABLE', inventoryType: 'IN', productID: p.id, warehouseBin: { name: 'A-01' }, batchID: res.body.batchID });
      expect(item.serialCode).toMatch(/^NEB-\d{7}$/);
    }
    expect(new Set(res.body.items.map((i: { serialCode: string }) => i.serialCode)).size).toBe(5);
    expect((await product(p.id))).toMatchObject({ quantity: 5, availableQuantity: 5 });
    const [event] = await h.orm.em.fork().execute<Array<{ payload: { data: { quantity: number; serialCodes: string[] } } }>>(
      `select payload from catalog.outbox where subject = 'dme.catalog.stock_added' and payload->'data'->>'batchId' = ?`,
      [res.body.batchID],
    );
    expect(event!.payload.data.quantity).toBe(5);
    expect(event!.payload.data.serialCodes.sort()).toEqual(res.body.items.map((i: { serialCode: string }) => i.serialCode).sort());
  });

  it('counts stay consistent at product, variant and sub-variant level as stock is added', async () => {
    const p = (await h.api.post('/api/products', wheelchair(), { as: h.staff })).body.product as Product;
    const [std, heavy] = p.variants;
    await add({ productID: p.id, warehouseBinID: binId, quantity: 3, productVariantID: std!.id, productSubVariantID: std!.subVariants[0]!.id });
    await add({ productID: p.id, warehouseBinID: bin2, quantity: 2, productVariantID: std!.id, productSubVariantID: std!.subVariants[1]!.id });
    await add({ productID: p.id, warehouseBinID: binId, quantity: 4, productVariantID: heavy!.id, productSubVariantID: heavy!.subVariants[1]!.id });
    const after = await product(p.id);
    expect(after.quantity).toBe(9);
    expect(after.availableQuantity).toBe(9);
    expect(after.variants.map((v) => v.quantity)).toEqual([5, 4]);
    expect(after.variants[0]!.subVariants.map((s) => s.availableQuantity)).toEqual([3, 2]);
    expect(after.variants[1]!.subVariants.map((s) => s.availableQuantity)).toEqual([0, 4]);
    expectConsistent(after);
    // The shop sees the same availability.
    const card = (await h.api.get(`/api/products?search=${encodeURIComponent(p.name)}`)).body.items[0];
    expect(card).toMatchObject({ availableQuantity: 9, inStock: true });
  });

  it('every count (rented, damaged, lost, sold) is derived from the item statuses and agrees at every level', async () => {
    const p = (await h.api.post('/api/products', wheelchair(), { as: h.staff })).body.product as Product;
    const [std, heavy] = p.variants;
    const a = (await add({ productID: p.id, warehouseBinID: binId, quantity: 6, productVariantID: std!.id, productSubVariantID: std!.subVariants[0]!.id })).body.items;
    const b = (await add({ productID: p.id, warehouseBinID: bin2, quantity: 4, productVariantID: heavy!.id, productSubVariantID: heavy!.subVariants[1]!.id })).body.items;
    // Statuses change only through the order process (packing, returns); here it is simulated in SQL.
    const setStatus = (ids: string[], status: string) =>
      h.orm.em.fork().execute(`update catalog.stock_items set status = ? where id = any(?::uuid[])`, [status, `{${ids.join(',')}}`]);
    const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);
    await setStatus(ids(a.slice(0, 2)), 'RENTED');
    await setStatus(ids(a.slice(2, 3)), 'DAMAGED');
    await setStatus(ids(a.slice(3, 4)), 'LOST');
    await setStatus(ids(b.slice(0, 1)), 'SOLD');
    const after = await product(p.id);
    expect(after).toMatchObject({ quantity: 10, availableQuantity: 5, rentedQuantity: 2, damagedQuantity: 1, lostQuantity: 1, soldQuantity: 1 });
    expect(after.variants[0]!.subVariants[0]).toMatchObject({ quantity: 6, availableQuantity: 2, rentedQuantity: 2, damagedQuantity: 1, lostQuantity: 1, soldQuantity: 0 });
    expect(after.variants[1]!.subVariants[1]).toMatchObject({ quantity: 4, availableQuantity: 3, soldQuantity: 1 });
    expectConsistent(after);
    const card = (await h.api.get(`/api/products?search=${encodeURIComponent(p.name)}`)).body.items[0];
    expect(card).toMatchObject({ availableQuantity: 5, soldQuantity: 1, inStock: true });
    expect((await h.api.get(`/api/stocks?productID=${p.id}&status=RENTED`, { as: h.staff })).body.total).toBe(2);

    // Active reservations (issue #4) come off `available` in the same place, at every level.
    const orderId = randomUUID();
    await reserve(h.orm.em.fork(), { orderId, orderType: 'RENT', lines: [{ ref: 0, productID: p.id, productVariantID: heavy!.id, productSubVariantID: heavy!.subVariants[1]!.id, quantity: 3 }] });
    const held = await product(p.id);
    expect(held.availableQuantity).toBe(2);
    expect(held.variants[1]!.availableQuantity).toBe(0);
    expect(held.variants[1]!.subVariants[1]!.availableQuantity).toBe(0);
    expectConsistent(held);
    await release(h.orm.em.fork(), orderId);
    expect((await product(p.id)).availableQuantity).toBe(5);

    // All sold out: Sold-Out in the shop. (Another search key: the shop list is micro-cached for
    // one second, and this SQL update bypasses the writes that clear it.)
    await setStatus([...ids(a), ...ids(b)], 'SOLD');
    const soldOut = (await h.api.get(`/api/products?search=${encodeURIComponent(p.name.toUpperCase())}`)).body.items[0];
    expect(soldOut).toMatchObject({ availableQuantity: 0, soldQuantity: 10, inStock: false });
  });

  it('adds stock to a variant without sub-variants', async () => {
    const p = (await h.api.post('/api/products', wheelchair({ variants: [{ name: 'Folding', price: '9.00', damageCharges: '50.00' }, { name: 'Rigid', price: '11.00', damageCharges: '60.00' }] }), { as: h.staff })).body.product as Product;
    expect((await add({ productID: p.id, warehouseBinID: binId, quantity: 3, productVariantID: p.variants[1]!.id })).status).toBe(201);
    const after = await product(p.id);
    expect(after.variants.map((v) => v.availableQuantity)).toEqual([0, 3]);
    expect(after.availableQuantity).toBe(3);
    expectConsistent(after);
  });

  it('keeps serial codes unique when 10 Add Stock requests for the same product run at once', async () => {
    const p = (await h.api.post('/api/products', simpleProduct({ name: 'Walker' }), { as: h.staff })).body.product;
    const results = await Promise.all(Array.from({ length: 10 }, () => add({ productID: p.id, warehouseBinID: binId, quantity: 7 })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    const serials = results.flatMap((r) => r.body.items.map((i: { serialCode: string }) => i.serialCode));
    expect(serials).toHaveLength(70);
    expect(new Set(serials).size).toBe(70);
    expect((await product(p.id)).quantity).toBe(70);
    const listed = await h.api.get(`/api/stocks?productID=${p.id}&limit=100`, { as: h.staff });
    expect(listed.body.total).toBe(70);
  });

  it.each([
    [{ quantity: 2 }, 'warehouseBinID', 'Please select Warehouse Bin!'],
    [{ warehouseBinID: 'BIN' }, 'quantity', 'Please input Quantity!'],
    [{ warehouseBinID: 'BIN', quantity: '' }, 'quantity', 'Please input Quantity!'],
    [{ warehouseBinID: 'BIN', quantity: 0 }, 'quantity', CATALOG_MESSAGES.stock.quantityRange],
    [{ warehouseBinID: 'BIN', quantity: 501 }, 'quantity', CATALOG_MESSAGES.stock.quantityRange],
    [{ warehouseBinID: 'BIN', quantity: 1.5 }, 'quantity', CATALOG_MESSAGES.stock.quantityRange],
  ] as Array<[Record<string, unknown>, string, string]>)('refuses %j: 400 on %s, nothing added', async (body, field, message) => {
    const p = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product;
    const before = await stockRows();
    const res = await add({ productID: p.id, ...body, ...(body.warehouseBinID ? { warehouseBinID: binId } : {}) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message });
    expect(await stockRows()).toBe(before);
  });

  it('stock goes to the leaf level: variant and sub-variant are required where they exist, and must belong', async () => {
    const p = (await h.api.post('/api/products', wheelchair(), { as: h.staff })).body.product as Product;
    const other = (await h.api.post('/api/products', wheelchair(), { as: h.staff })).body.product as Product;
    const before = await stockRows();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, CATALOG_MESSAGES.stock.levelVariant],
      [{ productVariantID: p.variants[0]!.id }, CATALOG_MESSAGES.stock.levelSubVariant],
      [{ productVariantID: other.variants[0]!.id, productSubVariantID: other.variants[0]!.subVariants[0]!.id }, CATALOG_MESSAGES.stock.unknownVariant],
      [{ productVariantID: p.variants[0]!.id, productSubVariantID: p.variants[1]!.subVariants[0]!.id }, CATALOG_MESSAGES.stock.unknownVariant],
    ];
    for (const [extra, message] of cases) {
      const res = await add({ productID: p.id, warehouseBinID: binId, quantity: 1, ...extra });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(message);
    }
    const flat = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product;
    const res = await add({ productID: flat.id, warehouseBinID: binId, quantity: 1, productVariantID: p.variants[0]!.id });
    expect(res.body.detail).toBe(CATALOG_MESSAGES.stock.levelNone);
    expect((await add({ productID: flat.id, warehouseBinID: '7f1a1f40-0000-4000-8000-000000000000', quantity: 1 })).status).toBe(400);
    expect(await stockRows()).toBe(before);
  });

  it('stock items cannot be edited or deleted afterwards: the item can be read, PATCH and DELETE are not allowed (405) and change nothing', async () => {
    const p = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product;
    const item = (await add({ productID: p.id, warehouseBinID: binId, quantity: 1 })).body.items[0];
    expect((await h.api.patch(`/api/stocks/${item.id}`, { status: 'SOLD' }, { as: h.staff })).status).toBe(405);
    expect((await h.api.del(`/api/stocks/${item.id}`, { as: h.staff })).status).toBe(405);
    const after = await h.api.get(`/api/stocks/${item.id}`, { as: h.staff });
    expect(after.body.item).toMatchObject({ id: item.id, serialCode: item.serialCode, status: 'AVAILABLE', inventoryType: 'IN' });
  });
});

describe('stock lists and labels', () => {
  it('filters by product, variant, sub-variant, bin and status, and pages', async () => {
    const p = (await h.api.post('/api/products', wheelchair(), { as: h.staff })).body.product as Product;
    const sub = p.variants[0]!.subVariants[1]!;
    await add({ productID: p.id, warehouseBinID: bin2, quantity: 3, productVariantID: p.variants[0]!.id, productSubVariantID: sub.id });
    const bySub = await h.api.get(`/api/stocks?productSubVariantID=${sub.id}`, { as: h.staff });
    expect(bySub.body.total).toBe(3);
    expect(bySub.body.items[0]).toMatchObject({ variantName: 'Standard', subVariantName: '18 in', warehouseBin: { name: 'B-01' } });
    expect((await h.api.get(`/api/stocks?productVariantID=${p.variants[1]!.id}`, { as: h.staff })).body.total).toBe(0);
    expect((await h.api.get(`/api/stocks?productID=${p.id}&status=SOLD`, { as: h.staff })).body.total).toBe(0);
    const page = await h.api.get(`/api/stocks?productID=${p.id}&limit=2&offset=2`, { as: h.staff });
    expect(page.body.items).toHaveLength(1);
    expect(page.body.total).toBe(3);
  });

  it('a stock item QR PNG decodes to its productID and serialCode; on the bin list it carries the stock id', async () => {
    const p = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product;
    const item = (await add({ productID: p.id, warehouseBinID: binId, quantity: 1 })).body.items[0];
    const res = await fetch(`${h.server.url}/api/stocks/${item.id}/qr.png`, {
      headers: { 'x-dme-internal-token': 'test-internal-token-0123456789abcdef', 'x-dme-user-id': h.staff.userId, 'x-dme-user-type': 'WAREHOUSE_STAFF' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="QR_Code.png"');
    const decode = (buf: Buffer) => {
      const png = PNG.sync.read(buf);
      return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
    };
    expect(JSON.parse(decode(Buffer.from(await res.arrayBuffer()))!)).toEqual({ productID: p.id, serialCode: item.serialCode });
    const byId = await fetch(`${h.server.url}/api/stocks/${item.id}/qr.png?payload=id`, {
      headers: { 'x-dme-internal-token': 'test-internal-token-0123456789abcdef', 'x-dme-user-id': h.staff.userId, 'x-dme-user-type': 'WAREHOUSE_STAFF' },
    });
    expect(JSON.parse(decode(Buffer.from(await byId.arrayBuffer()))!)).toEqual({ stockID: item.id });
    expect((await h.api.get('/api/stocks/7f1a1f40-0000-4000-8000-000000000000/qr.png', { as: h.staff })).status).toBe(404);
  });

  it('prints an A4 label sheet (PDF) with one label per item of the batch', async () => {
    const p = (await h.api.post('/api/products', simpleProduct({ name: 'Patient Lift' }), { as: h.staff })).body.product;
    const batch = (await add({ productID: p.id, warehouseBinID: binId, quantity: 50 })).body;
    const res = await fetch(`${h.server.url}/api/stock-batches/${batch.batchID}/labels.pdf`, {
      headers: { 'x-dme-internal-token': 'test-internal-token-0123456789abcdef', 'x-dme-user-id': h.staff.userId, 'x-dme-user-type': 'WAREHOUSE_STAFF' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdf.toString('latin1');
    // The document lists the serial codes it labels; an A4 page holds 3 × 6 labels: 3 pages.
    const ref = /\/Keywords (\d+) 0 R/.exec(text)?.[1];
    const keywords = new RegExp(`\\n${ref} 0 obj\\n\\(([^)]*)\\)`).exec(text)?.[1] ?? '';
    expect(keywords.split(' ').sort()).toEqual(batch.items.map((i: { serialCode: string }) => i.serialCode).sort());
    expect(/\/Type \/Pages[\s\S]*?\/Count (\d+)/.exec(text)?.[1]).toBe('3');
    expect(text).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    expect((await h.api.get('/api/stock-batches/7f1a1f40-0000-4000-8000-000000000000/labels.pdf', { as: h.staff })).status).toBe(404);
  });
});
