import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES, ReconciliationRunResponse } from '@dme/contracts';
import { createLogger } from '@dme/platform';
import { eventually, type Json } from '@dme/testing';
import { confirmAs, paymentIdOf, placedEvent, purchase, rental, rentalToFullPayment, startPayments, statusEvent, type PaymentHarness, type PlacedData } from '../../test/harness';
import { latestMismatches, runDailyReconciliation, startReconciliationSchedule } from './reconciliation.service';

/**
 * The daily reconciliation (issue 29) on a real database: payments moved by the real consumer's
 * handler and confirmed through the API reconcile with no mismatch; faults written behind the
 * service's back (a charge twice, a charge gone, a refund of another amount) are each found; the
 * DAILY run happens once a day whichever replica tries, and a run left by a dead process is taken over.
 */
let h: PaymentHarness;
beforeAll(async () => {
  h = await startPayments();
});
afterAll(() => h?.close());

const db = () => h.orm.em.fork();
const logger = createLogger('reconciliation-test', 'silent');
const exec = <T>(q: string, params: unknown[] = []) => db().execute<T[]>(q, params);

async function order(data: PlacedData): Promise<string> {
  await h.feed(placedEvent(data), statusEvent(data, 'PENDING', 'FOR_PAYMENT'));
  return paymentIdOf(h, data.orderId);
}
const withDeposit = () => {
  const base = rental();
  return rental({ deposit: '500.00', lines: [{ ...base.lines[0]!, deposit: '500.00' }, { ...base.lines[1]!, deposit: '0.00' }] });
};
const runNow = async (as: Json = h.accounting) => h.api.post('/api/reconciliation/runs', undefined, { as });
const mine = (body: Json, ids: string[]) => (body.mismatches as Json[]).filter((m) => ids.includes(m.paymentId));

let ids: { purchase: string; settled: string; paid: string; race: string };

describe('reconciliation (issue 29)', () => {
  it('payments as their terms say (a purchase paid, a rental settled and one paid in full with its deposit refund, a cancel race owed back): no mismatch', async () => {
    const buy = purchase();
    const purchaseId = await order(buy);
    expect((await confirmAs(h, h.accounting, purchaseId)).status).toBe(200);

    const settledData = withDeposit();
    const settled = await order(settledData);
    expect((await confirmAs(h, h.accounting, settled)).status).toBe(200);
    await h.feed(...rentalToFullPayment(settledData, '300.00', undefined, { lateFees: '50.00', depositApplied: '300.00', depositRefund: '200.00' }));

    const paidData = withDeposit();
    const paid = await order(paidData);
    expect((await confirmAs(h, h.accounting, paid)).status).toBe(200);
    await h.feed(...rentalToFullPayment(paidData, '600.00', undefined, { lateFees: '100.00', depositApplied: '500.00', depositRefund: '0.00' }));
    expect((await confirmAs(h, h.accounting, paid, { invoiceNumber: 'INV-R-2', receiptNumber: 'OR-R-2', note: '' })).status).toBe(200);

    // Paid while the order was being cancelled: owed back whole.
    const raceData = withDeposit();
    const race = await order(raceData);
    expect((await confirmAs(h, h.accounting, race)).status).toBe(200);
    await h.feed(statusEvent(raceData, 'FOR_PAYMENT', 'CANCELLED'));
    expect((await h.api.get(`/api/payments/${race}`, { as: h.accounting })).body.payment.status).toBe('REFUND_DUE');
    ids = { purchase: purchaseId, settled, paid, race };

    const res = await runNow();
    expect(res.status).toBe(201);
    expect(ReconciliationRunResponse.parse(res.body)).toEqual(res.body);
    expect(res.body.run).toMatchObject({ kind: 'MANUAL', status: 'DONE', mismatches: 0, startedByName: h.accounting.username, finishedAt: expect.any(String) });
    expect(res.body.run.checked).toBeGreaterThanOrEqual(4);
    expect(res.body.mismatches).toEqual([]);
    expect(await latestMismatches(db())).toBe(0);
  });

  it('finds a charge recorded twice, a charge gone and a refund of another amount, each on its payment; the metric says how many', async () => {
    // A second full payment of the purchase, a rental's full payment deleted, the deposit refund changed: behind the service's back.
    await exec(
      `insert into payment.payment_records (id, payment_id, type, invoice_number, receipt_number, note, amount, accommodated_by, accommodated_by_name, total_partial_payment, extra_charge, overall_total, balance, due_date, deposit)
       select ?, payment_id, type, invoice_number || '-X', receipt_number || '-X', note, amount, accommodated_by, accommodated_by_name, total_partial_payment, extra_charge, overall_total, balance, due_date, deposit
         from payment.payment_records where payment_id = ? and type = 'FULL'`,
      [randomUUID(), ids.purchase],
    );
    await exec(`delete from payment.payment_records where payment_id = ? and type = 'FULL'`, [ids.paid]);
    await exec(`update payment.payment_refunds set amount = 150 where payment_id = ? and kind = 'DEPOSIT'`, [ids.settled]);

    const res = await runNow();
    expect(res.status).toBe(201);
    const found = mine(res.body, Object.values(ids));
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ paymentId: ids.purchase, check: 'DUPLICATE_CHARGE', expected: '1', actual: '2' }),
        expect.objectContaining({ paymentId: ids.paid, check: 'MISSING_CHARGE', detail: 'Full payment not recorded for a PAID payment' }),
        expect.objectContaining({ paymentId: ids.settled, check: 'REFUND', expected: '200.00', actual: '150.00' }),
      ]),
    );
    // The healthy one stays clean; each finding names its order.
    expect(found.filter((m: Json) => m.paymentId === ids.race)).toEqual([]);
    expect(found.every((m: Json) => typeof m.orderNumber === 'string' && m.orderNumber.startsWith('ORD-'))).toBe(true);
    expect(res.body.run.mismatches).toBe((res.body.mismatches as Json[]).length);
    expect(await latestMismatches(db())).toBe(res.body.run.mismatches);

    // The runs, newest first; one run by id; an unknown one is 404.
    const runs = await h.api.get('/api/reconciliation/runs', { as: h.accounting });
    expect(runs.status).toBe(200);
    expect(runs.body.items[0]).toEqual(res.body.run);
    // What accounting's "Needs you now" counts: the newest finished run's mismatches.
    expect(runs.body.mismatches).toBe(res.body.run.mismatches);
    expect((await h.api.get(`/api/reconciliation/runs/${res.body.run.id}`, { as: h.accounting })).body).toEqual(res.body);
    const unknown = await h.api.get(`/api/reconciliation/runs/${randomUUID()}`, { as: h.accounting });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe(PAYMENT_MESSAGES.reconciliationNotFound);
  });

  it('only accounting (payment:confirm) starts a run; staff who read payments only may not', async () => {
    expect((await runNow(h.as('WAREHOUSE_STAFF'))).status).toBe(403);
    expect((await runNow(h.as('CUSTOMER'))).status).toBe(403);
    expect((await h.api.get('/api/reconciliation/runs', { as: h.as('CUSTOMER') })).status).toBe(403);
  });

  it("the schedule of two replicas started together: today's DAILY run at once, by one of them", async () => {
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Manila' });
    const replicas = [startReconciliationSchedule({ em: h.orm.em, logger }), startReconciliationSchedule({ em: h.orm.em, logger })];
    try {
      await eventually(async () => (await exec<{ status: string }>(`select status from payment.reconciliation_runs where kind = 'DAILY' and day = ?::date`, [today]))[0]?.status === 'DONE', 15_000);
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
    }
    expect(await exec(`select status from payment.reconciliation_runs where kind = 'DAILY' and day = ?::date`, [today])).toEqual([{ status: 'DONE' }]);
  });

  it('the DAILY run: once per Manila day whichever replica tries, two at once included; a run left RUNNING by a dead process is taken over', async () => {
    const day = new Date('2026-05-10T03:00:00Z'); // 11:00 in Manila
    const [a, b] = await Promise.all([runDailyReconciliation(db(), logger, day), runDailyReconciliation(db(), logger, day)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await runDailyReconciliation(db(), logger, new Date('2026-05-10T15:59:00Z'))).toBeNull(); // 23:59 the same Manila day
    const daily = await exec<{ id: string; status: string; checked: number }>(`select id, status, checked from payment.reconciliation_runs where kind = 'DAILY' and day = '2026-05-10'`);
    expect(daily).toEqual([{ id: a ?? b, status: 'DONE', checked: expect.any(Number) }]);
    expect(daily[0]!.checked).toBeGreaterThanOrEqual(4);

    // The next Manila day (00:30 on May 11 in Manila) is a new run; its process dies halfway (left RUNNING).
    const next = await runDailyReconciliation(db(), logger, new Date('2026-05-10T16:30:00Z'));
    expect(next).not.toBeNull();
    await exec(`update payment.reconciliation_runs set status = 'RUNNING', finished_at = null, started_at = now() where id = ?`, [next]);
    // Still running by another replica's clock: left alone.
    expect(await runDailyReconciliation(db(), logger, new Date('2026-05-11T01:00:00Z'))).toBeNull();
    await exec(`update payment.reconciliation_runs set started_at = now() - interval '20 minutes' where id = ?`, [next]);
    expect(await runDailyReconciliation(db(), logger, new Date('2026-05-11T01:00:00Z'))).toBe(next);
    const [taken] = await exec<{ status: string; n: number; mismatches: number }>(
      `select r.status, r.mismatches, (select count(*)::int from payment.reconciliation_mismatches m where m.run_id = r.id) as n from payment.reconciliation_runs r where r.id = ?`,
      [next],
    );
    // Its mismatches written once, not twice.
    expect(taken).toEqual({ status: 'DONE', mismatches: taken!.n, n: taken!.n });
  });
});
