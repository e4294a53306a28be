import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manilaDate, ORDER_MESSAGES } from '@dme/contracts';
import type { Json } from '@dme/testing';
import { startOrdering, type OrderHarness } from '../../test/harness';

let h: OrderHarness;
let chair: Json;
let gloves: Json;
beforeAll(async () => {
  h = await startOrdering();
  chair = await h.product({
    brand: 'Drive', name: `Wheelchair ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '15.00',
    variants: [{ name: 'Standard', subVariants: [{ name: '16 in', price: '15.00', damageCharges: '250.00' }, { name: '18 in', price: '16.00', damageCharges: '250.00' }] }],
  });
  gloves = await h.product({ brand: 'Medline', name: `Gloves ${randomUUID().slice(0, 6)}`, type: 'FOR_SALE', price: '12.50', damageCharges: '0.00' });
  await h.addStock({ ...leaf(), quantity: 20 });
  await h.addStock({ productID: gloves.id, quantity: 20 });
});
afterAll(() => h?.close());

const leaf = () => ({ productID: chair.id, productVariantID: chair.variants[0].id, productSubVariantID: chair.variants[0].subVariants[1].id });

describe('cart', () => {
  it('adds rent and buy lines with names, prices and line totals; the same line adds up', async () => {
    const c = h.customer();
    const add = await h.order.post('/api/cart', { type: 'RENT', ...leaf(), quantity: 2, noOfRentalDays: 5 }, { as: c });
    expect(add.status).toBe(201);
    expect(add.body.item).toMatchObject({ name: chair.name, brand: 'Drive', variant: { name: 'Standard', price: null }, subVariant: { name: '18 in', price: '16.00' }, price: '16.00', quantity: 2, noOfRentalDays: 5, lineTotal: '160.00', available: true });
    await h.order.post('/api/cart', { type: 'RENT', ...leaf(), quantity: 1, noOfRentalDays: 4 }, { as: c });
    await h.order.post('/api/cart', { type: 'BUY', productID: gloves.id, quantity: 3 }, { as: c });
    const rent = await h.order.get('/api/cart?type=RENT', { as: c });
    expect(rent.body.items).toHaveLength(1);
    expect(rent.body.items[0]).toMatchObject({ quantity: 3, noOfRentalDays: 4, lineTotal: '192.00' });
    expect(rent.body.total).toBe('192.00');
    const buy = await h.order.get('/api/cart?type=BUY', { as: c });
    expect(buy.body).toMatchObject({ total: '37.50', items: [{ name: gloves.name, quantity: 3, noOfRentalDays: null }] });
  });

  it('changes quantity and days, and removes a line', async () => {
    const c = h.customer();
    const item = (await h.order.post('/api/cart', { type: 'RENT', ...leaf(), quantity: 1, noOfRentalDays: 1 }, { as: c })).body.item;
    const upd = await h.order.patch(`/api/cart/${item.id}`, { quantity: 4, noOfRentalDays: 10 }, { as: c });
    expect(upd.body.item).toMatchObject({ quantity: 4, noOfRentalDays: 10, lineTotal: '640.00' });
    expect((await h.order.del(`/api/cart/${item.id}`, { as: c })).status).toBe(204);
    expect((await h.order.get('/api/cart?type=RENT', { as: c })).body.items).toEqual([]);
    expect((await h.order.del(`/api/cart/${item.id}`, { as: c })).status).toBe(404);
  });

  it('refuses bad lines: wrong cart type, missing variant or sub-variant, unknown product, quantity and days below 1', async () => {
    const c = h.customer();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'BUY', ...leaf(), quantity: 1 }, ORDER_MESSAGES.wrongType],
      [{ type: 'RENT', productID: chair.id, quantity: 1, noOfRentalDays: 1 }, ORDER_MESSAGES.chooseVariant],
      [{ type: 'RENT', productID: chair.id, productVariantID: chair.variants[0].id, quantity: 1, noOfRentalDays: 1 }, ORDER_MESSAGES.chooseSubVariant],
      [{ type: 'BUY', productID: randomUUID(), quantity: 1 }, ORDER_MESSAGES.unknownProduct],
      [{ type: 'RENT', ...leaf(), quantity: 0, noOfRentalDays: 1 }, ORDER_MESSAGES.quantityMin],
      [{ type: 'RENT', ...leaf(), quantity: 1, noOfRentalDays: 0 }, ORDER_MESSAGES.daysMin],
    ];
    for (const [body, message] of cases) {
      const res = await h.order.post('/api/cart', body, { as: c });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors?.[0]?.message ?? res.body.detail).toBe(message);
    }
    expect((await h.order.get('/api/cart?type=RENT', { as: c })).body.items).toEqual([]);
    expect((await h.order.get('/api/cart?type=BUY', { as: c })).body.items).toEqual([]);
  });

  it("refuses more than the catalog has available (SPEC §5), counting what the cart already holds of the leaf: 409, the spec's message on quantity, nothing added", async () => {
    const walker = await h.product({
      brand: 'Drive', name: `Walker ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '10.00',
      variants: [{ name: 'Folding', subVariants: [{ name: 'Small', price: '10.00', damageCharges: '50.00' }, { name: 'Large', price: '11.00', damageCharges: '50.00' }] }],
    });
    const small = { productID: walker.id, productVariantID: walker.variants[0].id, productSubVariantID: walker.variants[0].subVariants[0].id };
    const large = { ...small, productSubVariantID: walker.variants[0].subVariants[1].id };
    await h.addStock({ ...small, quantity: 3 });
    await h.addStock({ ...large, quantity: 5 });
    const c = h.customer();
    const add = (body: Record<string, unknown>, quantity: number) => h.order.post('/api/cart', { type: 'RENT', noOfRentalDays: 2, ...body, quantity }, { as: c });
    const refusal = { status: 409, body: { status: 409, detail: ORDER_MESSAGES.maxStock, errors: [{ field: 'quantity', message: ORDER_MESSAGES.maxStock }] } };
    const lines = async () => (await h.order.get('/api/cart?type=RENT', { as: c })).body.items.map((i: Json) => [i.productSubVariantID, i.quantity]);

    const over = await add(small, 4);
    expect(over).toMatchObject(refusal);
    expect(over.headers.get('content-type')).toContain('application/problem+json');
    expect(await lines()).toEqual([]);
    expect((await add(small, 2)).status).toBe(201);
    // 2 in the cart + 2 more is over 3: refused, the line keeps its 2 (and its days).
    expect(await add(small, 2)).toMatchObject(refusal);
    expect(await lines()).toEqual([[small.productSubVariantID, 2]]);
    // Up to exactly what is available; another leaf of the same product counts on its own.
    expect((await add(small, 1)).body.item).toMatchObject({ quantity: 3 });
    expect(await add(small, 1)).toMatchObject(refusal);
    expect((await add(large, 5)).status).toBe(201);
    expect(await lines()).toEqual([[small.productSubVariantID, 3], [large.productSubVariantID, 5]]);

    // Units held by placed orders are not available (the ledger's available - reserved).
    const buyer = h.customer();
    const placed = await h.order.post(
      '/api/orders',
      { type: 'RENT', typeOfOrder: 'BULK', lines: [{ ...large, quantity: 4, noOfRentalDays: 1 }], deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '121000', note: '' },
      { as: buyer, headers: { 'idempotency-key': randomUUID() } },
    );
    expect(placed.status).toBe(201);
    const late = h.customer();
    expect(await h.order.post('/api/cart', { type: 'RENT', ...large, quantity: 2, noOfRentalDays: 1 }, { as: late })).toMatchObject(refusal);
    expect((await h.order.post('/api/cart', { type: 'RENT', ...large, quantity: 1, noOfRentalDays: 1 }, { as: late })).status).toBe(201);

    // Changing a line's quantity: raising it over what is available is refused the same way;
    // lowering it (the customer adjusting to less stock) is not.
    const line = (await h.order.get('/api/cart?type=RENT', { as: c })).body.items.find((i: Json) => i.productSubVariantID === large.productSubVariantID);
    const raised = await h.order.patch(`/api/cart/${line.id}`, { quantity: 6 }, { as: c });
    expect(raised).toMatchObject(refusal);
    expect((await h.order.patch(`/api/cart/${line.id}`, { quantity: 4 }, { as: c })).body.item).toMatchObject({ quantity: 4, noOfRentalDays: 2 });
    expect(await h.order.patch(`/api/cart/${line.id}`, { quantity: 5 }, { as: c })).toMatchObject(refusal);
    // More days ask for more (issue 25): checked like adding, for the whole new period; 4 of the
    // 5 units are booked from today, so 1 can go for 3 days, not 2.
    expect(await h.order.patch(`/api/cart/${line.id}`, { quantity: 2, noOfRentalDays: 3 }, { as: c })).toMatchObject(refusal);
    expect((await h.order.patch(`/api/cart/${line.id}`, { quantity: 1, noOfRentalDays: 3 }, { as: c })).body.item).toMatchObject({ quantity: 1, noOfRentalDays: 3 });
  });

  it('two adds of one leaf at once cannot pass the check together', async () => {
    const cane = await h.product({ brand: 'Drive', name: `Cane ${randomUUID().slice(0, 6)}`, type: 'FOR_SALE', price: '8.00', damageCharges: '0.00' });
    await h.addStock({ productID: cane.id, quantity: 3 });
    for (let round = 0; round < 5; round++) {
      const c = h.customer();
      const results = await Promise.all([1, 2].map(() => h.order.post('/api/cart', { type: 'BUY', productID: cane.id, quantity: 2 }, { as: c })));
      expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual([201, 409]);
      expect((await h.order.get('/api/cart?type=BUY', { as: c })).body.items.map((i: Json) => i.quantity)).toEqual([2]);
    }
  });

  it('is for customers only', async () => {
    expect((await h.order.get('/api/cart?type=BUY', { as: h.staff })).status).toBe(403);
    expect((await h.order.get('/api/cart?type=BUY')).status).toBe(401);
    expect((await h.order.get('/api/cart', { as: h.customer() })).status).toBe(400);
  });
});

describe('a bulk order quote (issue 27: its confirmation shows the server total)', () => {
  it('prices each line as the cart does (unit price × quantity × days for rent) and totals them, reserving nothing', async () => {
    const c = h.customer();
    const start = manilaDate(new Date(Date.now() + 3 * 86_400_000));
    const rent = await h.order.post('/api/orders/quote', { type: 'RENT', lines: [{ ...leaf(), quantity: 2, noOfRentalDays: 3, startDate: start }, { ...leaf(), quantity: 1, noOfRentalDays: 1 }] }, { as: c });
    expect(rent.status, JSON.stringify(rent.body)).toBe(200);
    expect(rent.body).toEqual({
      total: '112.00',
      items: [
        expect.objectContaining({ productID: chair.id, name: chair.name, subVariant: { name: '18 in', price: '16.00' }, price: '16.00', quantity: 2, noOfRentalDays: 3, startDate: start, lineTotal: '96.00', available: true }),
        expect.objectContaining({ quantity: 1, noOfRentalDays: 1, startDate: manilaDate(), lineTotal: '16.00', available: true }),
      ],
    });
    const buy = await h.order.post('/api/orders/quote', { type: 'BUY', lines: [{ productID: gloves.id, quantity: 4 }] }, { as: c });
    expect(buy.body).toMatchObject({ total: '50.00', items: [{ name: gloves.name, quantity: 4, noOfRentalDays: null, startDate: null, lineTotal: '50.00' }] });
    // Nothing was put aside: the cart is untouched and all 20 gloves can still be added.
    expect((await h.order.get('/api/cart?type=BUY', { as: c })).body.items).toEqual([]);
    expect((await h.order.post('/api/cart', { type: 'BUY', productID: gloves.id, quantity: 20 }, { as: c })).status).toBe(201);
  });

  it('a line that cannot be ordered (unknown product, a product of the other type, a removed level) counts nothing and says so', async () => {
    const res = await h.order.post('/api/orders/quote', { type: 'BUY', lines: [{ productID: gloves.id, quantity: 1 }, { productID: randomUUID(), quantity: 2 }, { ...leaf(), quantity: 1 }] }, { as: h.customer() });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe('12.50');
    expect(res.body.items.map((i: Json) => [i.available, i.lineTotal])).toEqual([[true, '12.50'], [false, '0.00'], [false, '0.00']]);
  });

  it('refuses what is not a bulk order as a 400 naming the field, and is for customers only', async () => {
    const c = h.customer();
    const bad: Array<[unknown, string]> = [
      [{ type: 'RENT', lines: [] }, 'lines'],
      [{ type: 'RENT', lines: [{ ...leaf(), quantity: 1 }] }, 'lines.0.noOfRentalDays'],
      [{ type: 'BUY', lines: [{ productID: gloves.id, quantity: 0 }] }, 'lines.0.quantity'],
      [{ type: 'LEASE', lines: [{ productID: gloves.id, quantity: 1 }] }, 'type'],
    ];
    for (const [body, field] of bad) {
      const res = await h.order.post('/api/orders/quote', body, { as: c });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await h.order.post('/api/orders/quote', { type: 'BUY', lines: [{ productID: gloves.id, quantity: 1 }] }, { as: h.staff })).status).toBe(403);
    expect((await h.order.post('/api/orders/quote', { type: 'BUY', lines: [{ productID: gloves.id, quantity: 1 }] })).status).toBe(401);
  });
});
