import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { EVENT_STREAM, EVENTS, ReportResponse } from '@dme/contracts';
import { createOrm, sql, type Orm } from '@dme/platform';
import { eventually, type Json } from '@dme/testing';
import { migrations } from '../../migrations/0001_reporting';
import { rebuild } from '../rebuild/rebuild';
import { reportTotals } from './report.service';
import { startReporting, tableRows, type ReportingHarness } from '../../test/harness';
import { EXPECTED, order, oxygen, placedEvent, PRODUCTS, productEvent, scriptedHistory, statusEvent } from '../../test/scenario';

/**
 * The scripted history published on the real stream as the producers publish it, read by the
 * real consumers (durables private to this run); the reports' figures against hand-computed ones.
 */
let h: ReportingHarness;
let startSeq: number;
let durables: Record<string, string>;
const history = scriptedHistory();
const ids = Object.values(history.orders).map((o) => o.orderId);
const productIds = Object.values(PRODUCTS).map((p) => p.productId);
const count = (type: string) => history.events.filter((e) => e.type === type).length;

const counts = async () => {
  const [row] = await sql<{ o: number; p: number; s: number; pr: number }>(
    h.orm.em.fork(),
    `select (select count(*)::int from reporting.orders where id = any($1::uuid[])) as o,
            (select count(*)::int from reporting.payments where order_id = any($1::uuid[])) as p,
            (select count(*)::int from reporting.order_status_events where order_id = any($1::uuid[])) as s,
            (select count(*)::int from reporting.products where id = any($2::uuid[]) and brand <> 'Omron') as pr`,
    [ids, productIds],
  );
  return row!;
};
const settled = () =>
  eventually(async () => {
    const c = await counts();
    return c.o === count(EVENTS.order.placed) && c.p === count(EVENTS.payment.confirmed) && c.s === count(EVENTS.order.statusChanged) && c.pr === 4;
  }, 15_000);

const superadmin = () => h.as('SUPERADMIN');
const report = async (name: string, from = '2026-03-01', to = '2026-03-02', extra = ''): Promise<Json> => {
  const res = await h.api.get(`/api/reports/${name}?from=${from}&to=${to}${extra}`, { as: superadmin() });
  expect(res.status).toBe(200);
  // Every answer is what the contract says.
  expect(ReportResponse.parse(res.body)).toEqual(res.body);
  return res.body;
};
const orderRow = async (id: string) =>
  (await sql<Record<string, unknown>>(h.orm.em.fork(), `select status, payment_status, extra_charge::text as extra, full_due_date::text as due from reporting.orders where id = $1`, [id]))[0];

beforeAll(async () => {
  h = await startReporting();
  durables = await h.startConsumers();
  startSeq = await h.lastSeq();
  await h.publish(...history.events);
  await settled();
});
afterAll(() => h?.close());

describe('reports from a scripted history (Manila days 2026-03-01..02)', () => {
  const { B1, B2, B3, R1, R2, R3 } = history.orders;

  it('purchased sales: purchase lines paid in full in the range, per product / variant / sub-variant and unit price', async () => {
    const body = await report('purchased-sales');
    expect(body.rows).toEqual([
      { brand: 'Omron Healthcare', name: 'Digital Thermometer', totalQuantity: 1, productAmount: '11.50', totalSales: '11.50' },
      { brand: 'Omron Healthcare', name: 'Digital Thermometer', totalQuantity: 5, productAmount: '12.99', totalSales: '64.95' },
      { brand: 'Drive', name: 'Folding Wheelchair / Standard / 18 in', totalQuantity: 1, productAmount: '150.00', totalSales: '150.00' },
    ]);
    expect(body).toMatchObject({ report: 'purchased-sales', from: '2026-03-01', to: '2026-03-02', total: 3, sum: '226.45', totals: EXPECTED.totals });
    expect(body.chart.byDay).toEqual([
      { day: '2026-03-01', amount: '214.95' },
      { day: '2026-03-02', amount: '11.50' },
    ]);
    expect(body.chart.top).toEqual([
      { name: 'Folding Wheelchair / Standard / 18 in', amount: '150.00' },
      { name: 'Digital Thermometer', amount: '64.95' },
      { name: 'Digital Thermometer', amount: '11.50' },
    ]);
  });

  it('rental sales: rental lines by first payment in the range, never cancelled; balance 0 once paid', async () => {
    const body = await report('rental-sales');
    expect(body.rows).toEqual([
      // R1 (paid in full: balance 0) and R2 (99.00 − 33.00 owed): 2 × 3 days each.
      { brand: 'Drive Medical', name: 'Folding Wheelchair / Standard / 18 in', totalQuantity: 4, productAmount: '16.50', totalRentalDays: 12, totalAmount: '198.00', totalPartialPayments: '66.00', totalBalance: '66.00' },
      // R1 5 days, R2 5 days (225.00 − 45.00 owed), R3 2 days (90.00 − 45.00 owed).
      { brand: 'Philips', name: 'Oxygen Concentrator', totalQuantity: 3, productAmount: '45.00', totalRentalDays: 12, totalAmount: '540.00', totalPartialPayments: '135.00', totalBalance: '225.00' },
    ]);
    expect(body).toMatchObject({ total: 2, sum: '738.00', totals: EXPECTED.totals });
    expect(body.chart.byDay).toEqual([
      { day: '2026-03-01', amount: '414.00' },
      { day: '2026-03-02', amount: '324.00' },
    ]);
    expect(body.chart.top).toEqual([
      { name: 'Oxygen Concentrator', amount: '540.00' },
      { name: 'Folding Wheelchair / Standard / 18 in', amount: '198.00' },
    ]);
  });

  it('purchased invoice: one row per payment of a purchase, by Manila day (23:30 stays on its day)', async () => {
    const body = await report('purchased-invoice');
    expect(body.rows).toEqual([
      { invoiceNumber: 'INV-B1', receiptNumber: 'OR-B1', orderNumber: B1.orderNumber, customerName: 'Maria Santos', paidOn: '2026-03-01', amount: '175.98' },
      { invoiceNumber: 'INV-B2', receiptNumber: 'OR-B2', orderNumber: B2.orderNumber, customerName: 'Ana Cruz', paidOn: '2026-03-01', amount: '38.97' },
      { invoiceNumber: 'INV-B3', receiptNumber: 'OR-B3', orderNumber: B3.orderNumber, customerName: 'Ben Reyes', paidOn: '2026-03-02', amount: '11.50' },
    ]);
    expect(body).toMatchObject({ total: 3, sum: '226.45', totals: EXPECTED.totals });
    expect(body.chart.byDay).toEqual([
      { day: '2026-03-01', amount: '214.95' },
      { day: '2026-03-02', amount: '11.50' },
    ]);
    expect(body.chart.top.map((t: Json) => t.amount)).toEqual(['175.98', '38.97', '11.50']);
    // Paging: the whole range's total and sum, one page of rows.
    const page = await report('purchased-invoice', '2026-03-01', '2026-03-02', '&limit=2&offset=2');
    expect(page).toMatchObject({ total: 3, sum: '226.45' });
    expect(page.rows.map((r: Json) => r.invoiceNumber)).toEqual(['INV-B3']);
  });

  it('the Manila day boundary: 23:30 on the 1st is the 1st, 00:30 on the 2nd is the 2nd; 23:59 of Feb 28 and 00:00 of Mar 3 are out', async () => {
    const first = await report('purchased-invoice', '2026-03-01', '2026-03-01');
    expect(first.rows.map((r: Json) => r.invoiceNumber)).toEqual(['INV-B1', 'INV-B2']);
    expect(first.sum).toBe('214.95');
    expect(first.chart.byDay).toEqual([{ day: '2026-03-01', amount: '214.95' }]);
    const second = await report('purchased-invoice', '2026-03-02', '2026-03-02');
    expect(second.rows.map((r: Json) => r.invoiceNumber)).toEqual(['INV-B3']);
    const wide = await report('purchased-invoice', '2026-02-28', '2026-03-03');
    expect(wide.rows.map((r: Json) => r.invoiceNumber)).toEqual(['INV-B6', 'INV-B1', 'INV-B2', 'INV-B3', 'INV-B7']);
    expect(wide.chart.byDay.map((d: Json) => d.day)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03']);
  });

  it('rental partial invoice: each first payment with the order total, balance and payment status now', async () => {
    const body = await report('rental-partial-invoice');
    expect(body.rows).toEqual([
      { invoiceNumber: 'INV-R1', receiptNumber: 'OR-R1', orderNumber: R1.orderNumber, customerName: 'Jose Rizal', paidOn: '2026-03-01', orderTotal: '324.00', partialPayment: '78.00', balance: '246.00', paymentStatus: 'PAID' },
      { invoiceNumber: 'INV-R3', receiptNumber: 'OR-R3', orderNumber: R3.orderNumber, customerName: 'Hugo Diaz', paidOn: '2026-03-01', orderTotal: '90.00', partialPayment: '45.00', balance: '45.00', paymentStatus: 'INITIAL_PAYMENT' },
      { invoiceNumber: 'INV-R2', receiptNumber: 'OR-R2', orderNumber: R2.orderNumber, customerName: 'Gina Lopez', paidOn: '2026-03-02', orderTotal: '324.00', partialPayment: '78.00', balance: '246.00', paymentStatus: 'FOR_FULL_PAYMENT' },
    ]);
    expect(body).toMatchObject({ total: 3, sum: '201.00', totals: EXPECTED.totals });
    expect(body.chart.byDay).toEqual([
      { day: '2026-03-01', amount: '123.00' },
      { day: '2026-03-02', amount: '78.00' },
    ]);
  });

  it('rental unpaid invoice: asked for the full payment in the range and not paid (R1 was paid, so only R2)', async () => {
    const body = await report('rental-unpaid-invoice');
    expect(body.rows).toEqual([
      { orderNumber: R2.orderNumber, customerName: 'Gina Lopez', askedOn: '2026-03-02', dueDate: '2026-03-03', orderTotal: '324.00', partialPayment: '78.00', extraCharge: '15.50', balance: '261.50' },
    ]);
    expect(body).toMatchObject({ total: 1, sum: '261.50', totals: EXPECTED.totals });
    expect(body.chart.byDay).toEqual([
      { day: '2026-03-01', amount: '0.00' },
      { day: '2026-03-02', amount: '261.50' },
    ]);
    expect(body.chart.top).toEqual([{ name: `${R2.orderNumber} · Gina Lopez`, amount: '261.50' }]);
  });

  it('a range with nothing in it answers zeros and every day of the chart', async () => {
    const body = await report('rental-sales', '2026-01-10', '2026-01-12');
    expect(body).toMatchObject({ rows: [], total: 0, sum: '0.00', chart: { top: [] } });
    expect(body.chart.byDay).toEqual(['2026-01-10', '2026-01-11', '2026-01-12'].map((day) => ({ day, amount: '0.00' })));
    expect(body.totals).toEqual({ purchasedSales: '0.00', rentalSales: '0.00', overallSales: '0.00', purchasedInvoice: '0.00', rentalUnpaidInvoice: '0.00', rentalPartialBalance: '0.00', overallInvoice: '0.00' });
  });
});

describe('event order and redelivery', () => {
  const { B4, R1, R2, R3, R4 } = history.orders;

  it('events before their order (R2: status changes and payment first) are applied once it arrives; an older status never overrides a newer one', async () => {
    expect(await orderRow(R2.orderId)).toMatchObject({ status: 'FOR_FULL_PAYMENT', payment_status: 'FOR_FULL_PAYMENT', extra: '15.50', due: '2026-03-03' });
    expect(await orderRow(R3.orderId)).toMatchObject({ status: 'PREPARING', payment_status: 'INITIAL_PAYMENT' });
    expect(await orderRow(R1.orderId)).toMatchObject({ status: 'COMPLETED', payment_status: 'PAID', extra: '20.00', due: '2026-03-03' });
    expect(await orderRow(B4.orderId)).toMatchObject({ status: 'CANCELLED', payment_status: 'CANCELLED' });
    expect(await orderRow(R4.orderId)).toMatchObject({ status: 'CANCELLED', payment_status: 'CANCELLED' });
  });

  it('a full-payment request keeps the due date and balance its event carries; an older event without them gets the terms’ figures', async () => {
    const rent = order('RENT', 'Ana Cruz', '90.00', '45.00', [oxygen(1, 2, '90.00')], '2026-05-01T02:00:00.000Z');
    const older = order('RENT', 'Ben Reyes', '90.00', '45.00', [oxygen(1, 2, '90.00')], '2026-05-01T02:00:00.000Z');
    // 23:30 Manila on May 3 (15:30 UTC): the Manila day after is May 4. The carried figures differ
    // from what reporting would compute (May 4; 90 − 45 + 10 = 55) to show they are kept, not recomputed.
    await h.publish(placedEvent(rent), statusEvent(rent, 'FOR_PICK_UP', 'FOR_FULL_PAYMENT', '2026-05-03T15:30:00.000Z', '10.00', { fullPaymentDue: '2026-05-09', balance: '54.99' }));
    await h.publish(placedEvent(older), statusEvent(older, 'FOR_PICK_UP', 'FOR_FULL_PAYMENT', '2026-05-03T15:30:00.000Z', '10.00'));
    const figures = (id: string) =>
      sql<{ due: string; balance: string; first: string }>(
        h.orm.em.fork(),
        `select o.full_due_date::text as due, o.full_balance::text as balance, (select l.first_day::text from reporting.order_lines l where l.order_id = o.id) as first
         from reporting.orders o where o.id = $1 and o.full_asked_at is not null`,
        [id],
      );
    await eventually(async () => (await figures(rent.orderId)).length === 1 && (await figures(older.orderId)).length === 1, 10_000);
    expect((await figures(rent.orderId))[0]).toEqual({ due: '2026-05-09', balance: '54.99', first: '45.00' });
    expect((await figures(older.orderId))[0]).toEqual({ due: '2026-05-04', balance: '55.00', first: '45.00' });
  });

  it('the same events delivered again change nothing', async () => {
    const before = await Promise.all(['purchased-sales', 'rental-sales', 'purchased-invoice', 'rental-unpaid-invoice', 'rental-partial-invoice'].map((r) => report(r)));
    const payment = history.events.find((e) => e.type === EVENTS.payment.confirmed && (e.data as { invoiceNumber: string }).invoiceNumber === 'INV-B1')!;
    const ask = history.r1FullAsk.at(-1)!;
    const placed = history.events.find((e) => e.type === EVENTS.order.placed && e.aggregateId === R3.orderId)!;
    for (const e of [payment, ask, placed]) await h.publishAgain(e);
    // A later event on each subject shows every consumer has gone past the duplicates.
    const marker = productEvent({ ...PRODUCTS.oxygen, productId: randomUUID() }, 1);
    await h.publish(marker);
    await eventually(async () => {
      const inbox = await sql<{ n: number }>(h.orm.em.fork(), 'select count(*)::int as n from reporting.inbox where event_id = any($1::uuid[])', [[payment.id, ask.id, placed.id]]);
      const m = await sql<{ id: string }>(h.orm.em.fork(), 'select id from reporting.products where id = $1', [marker.aggregateId]);
      return m.length === 1 && inbox[0]!.n === 3;
    }, 10_000);
    // The duplicates were read (acked) and recorded once each.
    for (const e of [payment, ask, placed]) {
      const consumer = e.type === EVENTS.payment.confirmed ? durables['dme.payment.>'] : durables['dme.order.>'];
      await eventually(async () => {
        const info = await (await jetstreamManager(h.nc)).consumers.info(EVENT_STREAM, consumer!);
        return info.num_pending === 0 && info.num_ack_pending === 0;
      }, 10_000);
    }
    const after = await Promise.all(['purchased-sales', 'rental-sales', 'purchased-invoice', 'rental-unpaid-invoice', 'rental-partial-invoice'].map((r) => report(r)));
    expect(after).toEqual(before);
    expect(await counts()).toMatchObject({ o: count(EVENTS.order.placed), p: count(EVENTS.payment.confirmed), s: count(EVENTS.order.statusChanged) });
  });
});

describe('rebuild', () => {
  let rebuilt: Orm | undefined;
  afterAll(() => rebuilt?.close());

  it('replaying the stream into an empty schema gives the same tables and figures as the live read models', async () => {
    const result = await rebuild({ databaseUrl: h.dbUrl, nc: h.nc, logger: h.logger, schema: 'reporting_rebuild', fromSeq: startSeq + 1 });
    expect(result.messages).toBeGreaterThanOrEqual(history.events.length);
    const tables: Array<[string, string, string, unknown[]]> = [
      ['orders', 'id = any($1::uuid[])', 'id', [ids]],
      ['order_lines', 'order_id = any($1::uuid[])', 'order_id, line_no', [ids]],
      ['order_status_events', 'order_id = any($1::uuid[])', 'event_id', [ids]],
      ['payments', 'order_id = any($1::uuid[])', 'payment_id, type', [ids]],
      ['products', 'id = any($1::uuid[])', 'id', [productIds]],
    ];
    for (const [table, where, order, params] of tables) {
      const live = await tableRows(h.orm, 'reporting', table, where, order, params);
      expect(live.length).toBeGreaterThan(0);
      expect(await tableRows(h.orm, 'reporting_rebuild', table, where, order, params)).toEqual(live);
    }
    rebuilt = await createOrm({ url: h.dbUrl, schema: 'reporting_rebuild', entities: [], migrations });
    expect(await reportTotals(rebuilt.em.fork(), { from: '2026-03-01', to: '2026-03-02' })).toEqual(EXPECTED.totals);
  });

  it('refuses to rebuild the live schema in place', async () => {
    await expect(rebuild({ databaseUrl: h.dbUrl, nc: h.nc, logger: h.logger, schema: 'reporting' })).rejects.toThrow(/never rebuilt in place/);
  });
});
