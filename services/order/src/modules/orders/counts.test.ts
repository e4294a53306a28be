import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manilaDate, PAYMENT_RANK } from '@dme/contracts';
import { foldKeptCounts, sql } from '@dme/platform';
import type { Caller, Json } from '@dme/testing';
import { place, startOrdering, type OrderHarness } from '../../test/harness';
import { LINE_DUE } from '../rentals/due';
import { foldOrderCounts, ORDER_PAYMENT_COUNTS, statusCounts } from './counts';

// Issue 30: the staff's tabs count from counts kept by the orders table's triggers (migration
// 0020), folded now and then; they must equal counting the rows, whatever happened in between.
let h: OrderHarness;
let sale: Json;
const customer: Caller = { userId: randomUUID(), userType: 'CUSTOMER' };
beforeAll(async () => {
  h = await startOrdering();
  sale = await h.product({ brand: 'Braun', name: `Counted ${randomUUID().slice(0, 6)}`, type: 'FOR_SALE', price: '20.00', damageCharges: '0.00' });
  await h.addStock({ productID: sale.id, quantity: 100 });
});
afterAll(() => h?.close());

const em = () => h.orderOrm.em.fork();
/** Counting the rows: what the kept counts must say. */
async function counted(type?: string): Promise<Record<string, number>> {
  const rows = await sql<{ status: string; n: number }>(em(), `select status, count(*)::int as n from ordering.orders ${type ? 'where type = $1' : ''} group by status`, type ? [type] : []);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
async function expectExact(): Promise<void> {
  for (const type of ['BUY', 'RENT', undefined] as const) expect(await statusCounts(em(), type)).toEqual(await counted(type));
}
const buy = async () => {
  const res = await place(h, customer, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: sale.id, quantity: 1 }] });
  expect(res.status).toBe(201);
  return res.body.order as { id: string };
};

describe('the order tabs\' kept counts', () => {
  it('equal counting the rows through checkouts, status changes and bulk writes, before and after folding', async () => {
    await expectExact();
    const placed = [await buy(), await buy(), await buy()];
    await expectExact();
    expect((await h.order.post(`/api/orders/${placed[0]!.id}/transitions`, { to: 'FOR_PAYMENT' }, { as: h.staff })).status).toBe(200);
    await expectExact();
    // A statement changing many rows, one changing a column other than the status, one deleting.
    await sql(em(), `update ordering.orders set status = 'CANCELLED' where id = any($1::uuid[])`, [placed.slice(1).map((o) => o.id)]);
    await sql(em(), `update ordering.orders set note = 'checked' where id = $1`, [placed[0]!.id]);
    await expectExact();
    expect(await foldOrderCounts(em())).toBeGreaterThan(0);
    expect(await foldOrderCounts(em())).toBe(0);
    await expectExact();
    await sql(em(), `delete from ordering.orders where id = $1`, [placed[2]!.id]);
    await expectExact();
    // The staff list says the same: its total and each tab.
    const list = (await h.order.get('/api/orders?type=BUY&status=CANCELLED&limit=1', { as: h.staff })).body;
    const exact = await counted('BUY');
    expect(list.counts).toEqual(exact);
    expect(list.total).toBe(exact.CANCELLED);
    expect(list.items).toHaveLength(1);
    const all = (await h.order.get('/api/orders?limit=1', { as: h.staff })).body;
    expect(all.total).toBe(Object.values(await counted()).reduce((a, b) => a + b, 0));
  });

  it('stay exact while checkouts and folds from two replicas run at once', async () => {
    const folds = async () => {
      for (let i = 0; i < 15; i++) {
        await Promise.all([foldOrderCounts(em()), foldOrderCounts(em())]);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await Promise.all([folds(), Promise.all(Array.from({ length: 8 }, () => buy()))]);
    await expectExact();
    await foldOrderCounts(em());
    await expectExact();
    const [left] = await sql<{ n: number }>(em(), 'select count(*)::int as n from ordering.order_count_changes');
    expect(left!.n).toBe(0);
  });

  it("the ongoing rentals' tabs, unsearched, count what each tab's condition holds (the kept counts of the rentals and of their payments)", async () => {
    const bed = await h.product({ brand: 'Invacare', name: `Counted bed ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '50.00', damageCharges: '0.00' });
    await h.addStock({ productID: bed.id, quantity: 20 });
    const rent = async () => {
      const res = await place(h, customer, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: bed.id, quantity: 1, noOfRentalDays: 3 }] });
      expect(res.status).toBe(201);
      return (res.body.order as { id: string }).id;
    };
    const [overdue, out, back, paid] = [await rent(), await rent(), await rent(), await rent()];
    // Set straight in SQL, as any writer might: the counts are kept by the tables' triggers.
    await sql(em(), `update ordering.orders set status = 'DELIVERED', delivered_at = now() - interval '10 days' where id = $1`, [overdue]);
    await sql(em(), `update ordering.orders set status = 'DELIVERED', delivered_at = now() where id = $1`, [out]);
    await sql(em(), `update ordering.orders set status = 'FOR_RETURN', delivered_at = now() where id = $1`, [back]);
    await sql(em(), `update ordering.orders set status = 'COMPLETED' where id = $1`, [paid]);
    await sql(em(), `insert into ordering.order_payments (order_id, payment_id, status, status_rank, order_type) values ($1, gen_random_uuid(), 'PAID', $2, 'RENT')`, [paid, PAYMENT_RANK.PAID]);
    // What each tab's condition holds, counted over the rows.
    const counted = async () =>
      (
        await sql<Record<string, number>>(
          em(),
          `select count(*) filter (where o.status = 'DELIVERED')::int as "ONGOING",
                  count(*) filter (where o.status = 'DELIVERED' and exists (select 1 from ordering.order_lines l where l.order_id = o.id and l.no_of_rental_days is not null and ${LINE_DUE} <= $1::date))::int as "DUE_DATE",
                  count(*) filter (where o.status = 'FOR_RETURN')::int as "FOR_RETURN", count(*) filter (where p.status = 'PAID')::int as "PICKED_UP"
             from ordering.orders o left join ordering.order_payments p on p.order_id = o.id where o.type = 'RENT'`,
          [manilaDate()],
        )
      )[0]!;
    const expectTabs = async () => {
      const exact = await counted();
      for (const tab of ['ONGOING', 'DUE_DATE', 'FOR_RETURN', 'PICKED_UP'] as const) {
        const res = await h.order.get(`/api/ongoing-rentals?tab=${tab}&limit=1`, { as: h.staff });
        expect(res.status).toBe(200);
        expect({ tab, counts: res.body.counts, total: res.body.total, items: res.body.items.length }).toEqual({ tab, counts: exact, total: exact[tab], items: Math.min(1, exact[tab]!) });
      }
      return exact;
    };
    const exact = await expectTabs();
    expect(exact).toMatchObject({ ONGOING: expect.any(Number), DUE_DATE: expect.any(Number) });
    expect(Math.min(exact.ONGOING!, exact.DUE_DATE!, exact.FOR_RETURN!, exact.PICKED_UP!)).toBeGreaterThan(0);
    // The mirror's status moved on and back (updates, as the payment consumer's upsert makes), folded in between.
    await sql(em(), `update ordering.order_payments set status = 'FOR_FULL_PAYMENT' where order_id = $1`, [paid]);
    expect((await expectTabs()).PICKED_UP).toBe(exact.PICKED_UP! - 1);
    await foldOrderCounts(em());
    await foldKeptCounts(em(), ORDER_PAYMENT_COUNTS);
    await sql(em(), `update ordering.order_payments set status = 'PAID' where order_id = $1`, [paid]);
    expect(await expectTabs()).toEqual(exact);
    // Picked up lists the newest first (the one just done with on the first page).
    const newer = await rent();
    await sql(em(), `update ordering.orders set status = 'COMPLETED', created_at = now() + interval '1 second' where id = $1`, [newer]);
    await sql(em(), `insert into ordering.order_payments (order_id, payment_id, status, status_rank, order_type) values ($1, gen_random_uuid(), 'PAID', $2, 'RENT')`, [newer, PAYMENT_RANK.PAID]);
    const picked = (await h.order.get('/api/ongoing-rentals?tab=PICKED_UP&limit=2', { as: h.staff })).body;
    expect(picked.items.map((o: { id: string }) => o.id)).toEqual([newer, paid]);
  });
});
