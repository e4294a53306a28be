import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, REPORT_FILE_NAMES, ReportResponse, type EventEnvelope } from '@dme/contracts';
import { eventEnvelope } from '@dme/platform';
import { eventually, type Caller, type Json } from '@dme/testing';
import { startReporting, type ReportingHarness } from '../../test/harness';
import { order, oxygen, paymentEvent, paymentIdOf, placedEvent, statusEvent, type PlacedData } from '../../test/scenario';

/**
 * Issue 29's rental money reports (deposits held, late fees, refunds, receivables ageing) from a
 * scripted history of the events the order and payment services publish, against figures worked
 * out by hand below. Manila is UTC+8: "T02:00:00Z" is 10:00 the same Manila day.
 */
let h: ReportingHarness;
let admin: Caller;

const rental = (customer: string, placed: string) => order('RENT', customer, '1000.00', '100.00', [oxygen(1, 10, '1000.00')], `${placed}T02:00:00Z`);
/** The first payment, with its deposit. */
const firstPaid = (o: PlacedData, day: string, deposit: string) =>
  paymentEvent(o, {
    type: 'PARTIAL',
    amount: (Number(deposit) + 100).toFixed(2),
    deposit,
    when: `${day}T02:00:00Z`,
    invoice: `INV-${o.orderNumber}`,
    receipt: `OR-${o.orderNumber}`,
    status: 'INITIAL_PAYMENT',
    balance: '900.00',
    version: 1,
  });
/** Asked for the full payment on `day` (due the next day) with the settlement the order service computed. */
const asked = (o: PlacedData, day: string, due: string, balance: string, money: { lateFees?: string; lateFeesWaived?: string; depositApplied?: string; depositRefund?: string } = {}) =>
  statusEvent(o, 'FOR_PICK_UP', 'FOR_FULL_PAYMENT', `${day}T02:00:00Z`, '0.00', {
    fullPaymentDue: due,
    balance,
    lateFees: money.lateFees ?? '0.00',
    lateFeesWaived: money.lateFeesWaived ?? '0.00',
    depositApplied: money.depositApplied ?? '0.00',
    depositRefund: money.depositRefund ?? '0.00',
  });
const fullPaid = (o: PlacedData, day: string, amount: string) =>
  paymentEvent(o, { type: 'FULL', amount, when: `${day}T02:00:00Z`, invoice: `INV-F-${o.orderNumber}`, receipt: `OR-F-${o.orderNumber}`, status: 'PAID', balance: '0.00', version: 2 });
const refund = (o: PlacedData, number: string, kind: 'DEPOSIT' | 'CANCELLED', method: 'BANK_TRANSFER' | 'CASH', amount: string, at: string): EventEnvelope => {
  const paymentId = paymentIdOf(o);
  return {
    ...eventEnvelope('payment', {
      type: EVENTS.payment.refundRecorded,
      aggregateId: paymentId,
      data: { paymentId, orderId: o.orderId, orderNumber: o.orderNumber, customerId: o.customerId, orderType: o.type, refundId: randomUUID(), number, kind, amount, method, status: 'PAID', refundedAt: at },
    }),
    occurredAt: at,
  };
};

// D1: ₱1,000 deposit taken May 1; back late with damage: ₱500 late fees counted, ₱200 waived,
// ₱300 charged; the deposit paid ₱800 of the charges, ₱200 refunded May 21; ₱160 still owed.
const D1 = rental('Ana Cruz', '2026-05-01');
// D2: ₱500 deposit taken May 2, still out: held.
const D2 = rental('Ben Reyes', '2026-05-02');
// D3: asked March 15, due March 16, ₱400 unpaid. D5: asked January 10, ₱90 unpaid.
const D3 = rental('Carla Diaz', '2026-03-01');
const D5 = rental('Eli Tan', '2026-01-01');
// D4: asked May 31 (not due yet on May 31), ₱250. D6: asked April 1, paid May 10.
const D4 = rental('Dan Lim', '2026-05-20');
const D6 = rental('Fe Go', '2026-03-20');
// D7: cancelled after its first payment (the race): ₱1,100 refunded in cash May 22.
const D7 = rental('Gil Uy', '2026-05-03');

const history: EventEnvelope[] = [
  ...[D1, D2, D3, D4, D5, D6, D7].map(placedEvent),
  firstPaid(D1, '2026-05-01', '1000.00'),
  firstPaid(D2, '2026-05-02', '500.00'),
  firstPaid(D7, '2026-05-03', '1000.00'),
  statusEvent(D7, 'PREPARING', 'CANCELLED', '2026-05-03T05:00:00Z'),
  asked(D1, '2026-05-20', '2026-05-21', '160.00', { lateFees: '300.00', lateFeesWaived: '200.00', depositApplied: '800.00', depositRefund: '200.00' }),
  // Late fees counted and all waived: on the report (₱0 charged).
  asked(D4, '2026-05-31', '2026-06-01', '250.00', { lateFeesWaived: '100.00' }),
  asked(D3, '2026-03-15', '2026-03-16', '400.00'),
  asked(D5, '2026-01-10', '2026-01-11', '90.00'),
  asked(D6, '2026-04-01', '2026-04-02', '900.00'),
  fullPaid(D6, '2026-05-10', '900.00'),
  refund(D1, 'RF-20260521-000001', 'DEPOSIT', 'BANK_TRANSFER', '200.00', '2026-05-21T03:00:00Z'),
  refund(D7, 'RF-20260522-000002', 'CANCELLED', 'CASH', '1100.00', '2026-05-22T01:00:00Z'),
];

const report = async (name: string, from: string, to: string): Promise<Json> => {
  const res = await h.api.get(`/api/reports/${name}?from=${from}&to=${to}`, { as: admin });
  expect(res.status).toBe(200);
  expect(ReportResponse.parse(res.body)).toEqual(res.body);
  return res.body;
};

beforeAll(async () => {
  h = await startReporting();
  admin = h.as('SUPERADMIN');
  await h.feed(...history);
});
afterAll(() => h?.close());

describe('rental money reports (issue 29)', () => {
  it('deposits held: each deposit taken in the range with what became of it; the sum is what is held', async () => {
    const body = await report('deposits-held', '2026-05-01', '2026-05-31');
    expect(body.rows).toEqual([
      { orderNumber: D1.orderNumber, customerName: 'Ana Cruz', takenOn: '2026-05-01', deposit: '1000.00', applied: '800.00', refund: '200.00', held: '0.00' },
      { orderNumber: D2.orderNumber, customerName: 'Ben Reyes', takenOn: '2026-05-02', deposit: '500.00', applied: '0.00', refund: '0.00', held: '500.00' },
      // Cancelled: the deposit goes back with the payment, nothing held.
      { orderNumber: D7.orderNumber, customerName: 'Gil Uy', takenOn: '2026-05-03', deposit: '1000.00', applied: '0.00', refund: '1000.00', held: '0.00' },
    ]);
    expect(body).toMatchObject({ total: 3, sum: '500.00' });
    expect(body.chart.byDay.filter((d: Json) => d.amount !== '0.00')).toEqual([{ day: '2026-05-02', amount: '500.00' }]);
    // Taken before the range: not in it.
    expect((await report('deposits-held', '2026-05-02', '2026-05-31')).rows.map((r: Json) => r.orderNumber)).toEqual([D2.orderNumber, D7.orderNumber]);
  });

  it('late fees: counted, waived and charged per rental settled in the range', async () => {
    const body = await report('late-fees', '2026-05-01', '2026-05-31');
    expect(body.rows).toEqual([
      { orderNumber: D1.orderNumber, customerName: 'Ana Cruz', settledOn: '2026-05-20', lateFees: '500.00', waived: '200.00', charged: '300.00' },
      { orderNumber: D4.orderNumber, customerName: 'Dan Lim', settledOn: '2026-05-31', lateFees: '100.00', waived: '100.00', charged: '0.00' },
    ]);
    expect(body).toMatchObject({ total: 2, sum: '300.00' });
    // A rental with no late fee at all (D3, D5, D6) is never a row.
    expect((await report('late-fees', '2026-01-01', '2026-04-30')).rows).toEqual([]);
  });

  it('refunds: each refund paid back in the range, with its reason and method as words', async () => {
    const body = await report('refunds', '2026-05-01', '2026-05-31');
    expect(body.rows).toEqual([
      { refundNumber: 'RF-20260521-000001', orderNumber: D1.orderNumber, customerName: 'Ana Cruz', reason: 'Deposit returned', method: 'Bank transfer', refundedOn: '2026-05-21', amount: '200.00' },
      { refundNumber: 'RF-20260522-000002', orderNumber: D7.orderNumber, customerName: 'Gil Uy', reason: 'Order cancelled after payment', method: 'Cash', refundedOn: '2026-05-22', amount: '1100.00' },
    ]);
    expect(body).toMatchObject({ total: 2, sum: '1300.00' });
    // 2026-05-22T01:00Z is 09:00 on May 22 in Manila: only that day's refund.
    expect((await report('refunds', '2026-05-22', '2026-05-22')).rows.map((r: Json) => r.refundNumber)).toEqual(['RF-20260522-000002']);
  });

  it('receivables ageing: unpaid full payments on the range’s last day, each balance in the bucket of its days past due', async () => {
    const may = await report('receivables-ageing', '2026-05-01', '2026-05-31');
    const zero = { current: '0.00', days1to30: '0.00', days31to60: '0.00', days61to90: '0.00', over90: '0.00' };
    expect(may.rows).toEqual([
      { orderNumber: D5.orderNumber, customerName: 'Eli Tan', askedOn: '2026-01-10', dueDate: '2026-01-11', daysOverdue: 140, ...zero, over90: '90.00', balance: '90.00' },
      { orderNumber: D3.orderNumber, customerName: 'Carla Diaz', askedOn: '2026-03-15', dueDate: '2026-03-16', daysOverdue: 76, ...zero, days61to90: '400.00', balance: '400.00' },
      { orderNumber: D1.orderNumber, customerName: 'Ana Cruz', askedOn: '2026-05-20', dueDate: '2026-05-21', daysOverdue: 10, ...zero, days1to30: '160.00', balance: '160.00' },
      { orderNumber: D4.orderNumber, customerName: 'Dan Lim', askedOn: '2026-05-31', dueDate: '2026-06-01', daysOverdue: 0, ...zero, current: '250.00', balance: '250.00' },
    ]);
    expect(may).toMatchObject({ total: 4, sum: '900.00' });
    // Asked before the range: counted on its first day, so the days add up to the sum.
    expect(may.chart.byDay.filter((d: Json) => d.amount !== '0.00')).toEqual([
      { day: '2026-05-01', amount: '490.00' },
      { day: '2026-05-20', amount: '160.00' },
      { day: '2026-05-31', amount: '250.00' },
    ]);
    // As of May 5: D6 was still unpaid (paid May 10), D1 and D4 not yet asked.
    const early = await report('receivables-ageing', '2026-05-01', '2026-05-05');
    expect(early.rows.map((r: Json) => [r.orderNumber, r.daysOverdue, r.over90, r.days31to60])).toEqual([
      [D5.orderNumber, 114, '90.00', '0.00'],
      [D3.orderNumber, 50, '0.00', '400.00'],
      [D6.orderNumber, 33, '0.00', '900.00'],
    ]);
    expect(early.sum).toBe('1390.00');
  });

  it('a rental cancelled after its first payment was taken is owed it back (REFUND_DUE), then REFUNDED; its balance is never counted as owed', async () => {
    const status = (body: Json, o: PlacedData) => body.rows.find((r: Json) => r.orderNumber === o.orderNumber)?.paymentStatus;
    // D7, refunded May 22: REFUNDED, as the payment service has it. Only D2's balance (₱900) waits for a full payment.
    const may = await report('rental-partial-invoice', '2026-05-01', '2026-05-31');
    expect(status(may, D7)).toBe('REFUNDED');
    expect(status(may, D2)).toBe('INITIAL_PAYMENT');
    expect(may.totals.rentalPartialBalance).toBe('900.00');
    // D8: its first payment (₱100) taken while it was being cancelled in July; not paid back yet.
    const D8 = rental('Hana Sy', '2026-07-01');
    await h.feed(placedEvent(D8), firstPaid(D8, '2026-07-01', '0.00'), statusEvent(D8, 'FOR_PAYMENT', 'CANCELLED', '2026-07-01T05:00:00Z'));
    const july = await report('rental-partial-invoice', '2026-07-01', '2026-07-31');
    expect(july.rows.map((r: Json) => [r.orderNumber, r.partialPayment, r.balance, r.paymentStatus])).toEqual([[D8.orderNumber, '100.00', '900.00', 'REFUND_DUE']]);
    expect(july.totals).toMatchObject({ rentalPartialBalance: '0.00', overallInvoice: '0.00' });
    await h.feed(refund(D8, 'RF-20260702-000003', 'CANCELLED', 'CASH', '100.00', '2026-07-02T01:00:00Z'));
    expect(status(await report('rental-partial-invoice', '2026-07-01', '2026-07-31'), D8)).toBe('REFUNDED');
  });

  it('a refund recorded again (a redelivered event) is counted once', async () => {
    await h.feed(history.at(-1)!);
    expect((await report('refunds', '2026-05-01', '2026-05-31')).sum).toBe('1300.00');
  });

  it('exports to Excel like the others: receivables ageing with its buckets, totals equal to the report', async () => {
    const started = await h.api.post('/api/reports/receivables-ageing/exports', { from: '2026-05-01', to: '2026-05-31' }, { as: admin });
    expect(started.status).toBe(202);
    const job = await eventually(async () => {
      const res = await h.api.get(`/api/report-exports/${started.body.export.id}`, { as: admin });
      return res.body.export.status !== 'RUNNING' ? res.body.export : undefined;
    }, 20_000);
    expect(job).toMatchObject({ status: 'DONE', rowsTotal: 4, rowsWritten: 4, fileName: REPORT_FILE_NAMES['receivables-ageing'] });
    const file = await h.download(`/api/report-exports/${job.id}/file`, admin);
    expect(file.status).toBe(200);
    const path = join(h.exportDir, `read-${job.id}.xlsx`);
    await writeFile(path, file.bytes);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Receivables Ageing');
    expect(ws.getRow(1).values).toEqual([
      undefined, 'Order Number', 'Customer', 'Asked On', 'Due Date', 'Days Overdue', 'Current', '1–30 Days', '31–60 Days', '61–90 Days', 'Over 90 Days', 'Balance',
    ]);
    const totals = ws.getRow(6);
    expect(totals.getCell(1).value).toBe('Total');
    // Days overdue are not summed; each bucket and the balance are.
    expect(totals.getCell(5).value).toBeNull();
    expect([6, 7, 8, 9, 10, 11].map((c) => Math.round(Number(totals.getCell(c).value) * 100))).toEqual([25000, 16000, 0, 40000, 9000, 90000]);
  });
});
