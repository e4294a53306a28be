import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_MESSAGES } from '@dme/contracts';
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

  it('is for customers only', async () => {
    expect((await h.order.get('/api/cart?type=BUY', { as: h.staff })).status).toBe(403);
    expect((await h.order.get('/api/cart?type=BUY')).status).toBe(401);
    expect((await h.order.get('/api/cart', { as: h.customer() })).status).toBe(400);
  });
});
