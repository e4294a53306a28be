import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldKeptCounts, readKeptCounts, sql } from '@dme/platform';
import { confirmAs, paymentIdOf, placedEvent, purchase, startPayments, statusEvent, type PaymentHarness } from '../../test/harness';
import { PAYMENT_COUNTS } from './counts';

// Issue 30: accounting's payment tabs count from counts kept by the payments table's triggers
// (migration 0010), folded now and then; they must equal counting the rows, whatever happened in between.
let h: PaymentHarness;
beforeAll(async () => {
  h = await startPayments();
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
/** Counting the rows: what the kept counts must say. */
async function counted(): Promise<Record<string, number>> {
  const rows = await sql<{ status: string; n: number }>(em(), 'select status, count(*)::int as n from payment.payments group by status');
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
const expectExact = async () => expect(await readKeptCounts(em(), PAYMENT_COUNTS)).toEqual(await counted());
/** A purchase placed, and made payable (FOR_PAYMENT); answers its payment's id. */
async function opened(): Promise<string> {
  const data = purchase();
  await h.feed(placedEvent(data));
  await h.feed(statusEvent(data, 'PENDING', 'FOR_PAYMENT'));
  return paymentIdOf(h, data.orderId);
}

describe("the payment tabs' kept counts", () => {
  it('equal counting the rows through payments opened, taken and changed in bulk, before and after folding; the list answers them', async () => {
    await expectExact();
    const ids = [await opened(), await opened(), await opened()];
    await expectExact();
    expect((await confirmAs(h, h.accounting, ids[0]!)).status).toBe(200);
    await expectExact();
    // A statement changing many rows, one changing a column other than the status, one deleting.
    await sql(em(), `update payment.payments set status = 'CANCELLED' where id = any($1::uuid[])`, [ids.slice(1)]);
    await sql(em(), `update payment.payments set customer_name = 'Checked' where id = $1`, [ids[0]]);
    await expectExact();
    expect(await foldKeptCounts(em(), PAYMENT_COUNTS)).toBeGreaterThan(0);
    expect(await foldKeptCounts(em(), PAYMENT_COUNTS)).toBe(0);
    await expectExact();
    await sql(em(), `delete from payment.payments where id = $1`, [ids[2]]);
    await expectExact();
    // Accounting's list says the same: each tab's count, the tab's total and all of them.
    const exact = await counted();
    const paid = (await h.api.get('/api/payments?status=PAID&limit=1', { as: h.accounting })).body;
    expect(paid.counts).toEqual({ PENDING: 0, INITIAL_PAYMENT: 0, FOR_FULL_PAYMENT: 0, PAID: 0, CANCELLED: 0, REFUND_DUE: 0, REFUNDED: 0, ...exact });
    expect(paid.total).toBe(exact.PAID);
    expect(paid.items).toHaveLength(1);
    const all = (await h.api.get('/api/payments?limit=1', { as: h.accounting })).body;
    expect(all.total).toBe(Object.values(exact).reduce((a, b) => a + b, 0));
    // A search counts its own matches (here: the one payment renamed).
    const found = (await h.api.get('/api/payments?search=Checked&limit=5', { as: h.accounting })).body;
    expect({ total: found.total, paid: found.counts.PAID, items: found.items.length }).toEqual({ total: 1, paid: 1, items: 1 });
    // The Refunds tab, unsearched: the payments with a refund still due (each once, however many it has), the status tabs' kept counts.
    const withRefund = await opened();
    await sql(
      em(),
      `insert into payment.payment_refunds (id, number, payment_id, kind, amount) values (gen_random_uuid(), 'RF-T-' || left($1, 8), $1::uuid, 'DEPOSIT', 10), (gen_random_uuid(), 'RF-T2-' || left($1, 8), $1::uuid, 'CANCELLED', 5)`,
      [withRefund],
    );
    const [due] = await sql<{ n: number }>(em(), `select count(distinct payment_id)::int as n from payment.payment_refunds where status = 'DUE'`);
    const refunds = (await h.api.get('/api/payments?refunds=DUE&limit=100', { as: h.accounting })).body;
    expect({ total: refunds.total, refundsDue: refunds.refundsDue, counts: refunds.counts }).toEqual({
      total: due!.n,
      refundsDue: due!.n,
      counts: { PENDING: 0, INITIAL_PAYMENT: 0, FOR_FULL_PAYMENT: 0, PAID: 0, CANCELLED: 0, REFUND_DUE: 0, REFUNDED: 0, ...(await counted()) },
    });
    expect(refunds.items.filter((p: { id: string }) => p.id === withRefund)).toEqual([expect.objectContaining({ refundsDue: '15.00' })]);
    expect(refunds.items.every((p: { refundsDue: string | null }) => p.refundsDue !== null)).toBe(true);
    // With a status: those of the status among them.
    const [its] = await sql<{ status: string }>(em(), 'select status from payment.payments where id = $1', [withRefund]);
    const ofStatus = (await h.api.get(`/api/payments?refunds=DUE&status=${its!.status}&limit=100`, { as: h.accounting })).body;
    expect(ofStatus.items.map((p: { id: string }) => p.id)).toContain(withRefund);
    expect(ofStatus.total).toBe(ofStatus.items.length);
    expect((await h.api.get('/api/payments?refunds=DUE&status=REFUNDED&limit=100', { as: h.accounting })).body.items.map((p: { id: string }) => p.id)).not.toContain(withRefund);
  });

  it('stay exact while payments are opened and folds from two replicas run at once', async () => {
    const folds = async () => {
      for (let i = 0; i < 15; i++) {
        await Promise.all([foldKeptCounts(em(), PAYMENT_COUNTS), foldKeptCounts(em(), PAYMENT_COUNTS)]);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await Promise.all([folds(), Promise.all(Array.from({ length: 8 }, () => opened()))]);
    await expectExact();
    await foldKeptCounts(em(), PAYMENT_COUNTS);
    await expectExact();
    const [left] = await sql<{ n: number }>(em(), 'select count(*)::int as n from payment.payment_count_changes');
    expect(left!.n).toBe(0);
  });
});
