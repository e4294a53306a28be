import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream } from '@nats-io/jetstream';
import { createLogger, eventEnvelope } from '@dme/platform';
import { EVENTS } from '@dme/contracts';
import { eventually, type Json } from '@dme/testing';
import { orderEventHandler } from './orders';
import { confirmAs, paymentIdOf, placedEvent, purchase, rental, startPayments, statusEvent, type PaymentHarness } from '../test/harness';

/**
 * The real consumer on the real stream: events published as the order service's outbox relay
 * publishes them (message id = event id), under a durable name private to this run.
 */
let h: PaymentHarness;
let durable: string;
beforeAll(async () => {
  h = await startPayments();
  durable = await h.startConsumer();
});
afterAll(() => h?.close());

const payment = async (orderId: string): Promise<Json | undefined> => {
  const [row] = await h.orm.em.fork().execute<Array<{ id: string }>>('select id from payment.payments where order_id = ?', [orderId]);
  return row ? (await h.api.get(`/api/payments/${row.id}`, { as: h.accounting })).body.payment : undefined;
};
const until = (orderId: string, ok: (p: Json) => boolean) => eventually(async () => {
  const p = await payment(orderId);
  return p && ok(p) ? p : undefined;
}, 10_000);
const inboxCount = async (eventId: string) =>
  (await h.orm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from payment.inbox where consumer = ? and event_id = ?', [durable, eventId]))[0]!.n;

describe('order events from JetStream', () => {
  it('placed opens PENDING payments with their totals; FOR_PAYMENT makes them payable; CANCELLED cancels', async () => {
    const buy = purchase();
    const rent = rental();
    const cancelled = rental();
    await h.publish(placedEvent(buy), placedEvent(rent), placedEvent(cancelled));
    expect(await until(buy.orderId, (p) => p.status === 'PENDING')).toMatchObject({ orderType: 'BUY', totalOrderPayment: '175.98', totalPartialPayment: null, balance: '175.98', nextAction: null });
    expect(await until(rent.orderId, (p) => p.status === 'PENDING')).toMatchObject({ orderType: 'RENT', totalOrderPayment: '324.00', totalPartialPayment: '78.00', nextAction: null });
    await h.publish(statusEvent(buy, 'PENDING', 'FOR_PAYMENT'), statusEvent(rent, 'PENDING', 'FOR_PAYMENT'), statusEvent(cancelled, 'PENDING', 'CANCELLED'));
    expect((await until(buy.orderId, (p) => p.orderStatus === 'FOR_PAYMENT')).nextAction).toBe('MARK_AS_PAID');
    expect((await until(rent.orderId, (p) => p.orderStatus === 'FOR_PAYMENT')).nextAction).toBe('PAY_PARTIAL');
    expect(await until(cancelled.orderId, (p) => p.orderStatus === 'CANCELLED')).toMatchObject({ status: 'CANCELLED', nextAction: null });
  });

  it('a rental extended (issue 25): the new total and lines, and the balance after the first payment follows; once again changes nothing', async () => {
    const rent = rental();
    await h.publish(placedEvent(rent), statusEvent(rent, 'PENDING', 'FOR_PAYMENT'));
    await until(rent.orderId, (p) => p.orderStatus === 'FOR_PAYMENT');
    expect((await confirmAs(h, h.accounting, await paymentIdOf(h, rent.orderId))).status).toBe(200); // the first day: 78.00
    expect(await until(rent.orderId, (p) => p.status === 'INITIAL_PAYMENT')).toMatchObject({ totalOrderPayment: '324.00', balance: '246.00' });
    // Two more days for both lines: 2 × 16.50 × 2 + 45.00 × 2 = 156.00 more.
    const extended = eventEnvelope('order', {
      type: EVENTS.order.extended,
      aggregateId: rent.orderId,
      data: {
        orderId: rent.orderId, orderNumber: rent.orderNumber, customerId: rent.customerId, seq: 1, days: 2, amount: '156.00', totalAmount: '480.00', by: 'CUSTOMER',
        lines: [
          { lineId: crypto.randomUUID(), noOfRentalDays: 5, lineTotal: '165.00', dueDate: null },
          { lineId: crypto.randomUUID(), noOfRentalDays: 7, lineTotal: '315.00', dueDate: null },
        ],
      },
    });
    await h.publish(extended);
    const after = await until(rent.orderId, (p) => p.totalOrderPayment === '480.00');
    expect(after).toMatchObject({ status: 'INITIAL_PAYMENT', totalPartialPayment: '78.00', balance: '402.00' });
    expect(after.lines.map((l: Json) => [l.noOfRentalDays, l.lineTotal])).toEqual([[5, '165.00'], [7, '315.00']]);
    // The same event again (published past the stream's dedupe window) changes nothing.
    await jetstream(h.nc).publish(extended.type, JSON.stringify(extended), { msgID: `${extended.id}-again` });
    const marker = purchase();
    await h.publish(placedEvent(marker));
    await until(marker.orderId, () => true);
    expect(await payment(rent.orderId)).toMatchObject({ totalOrderPayment: '480.00', balance: '402.00' });
  });

  it('a rental ended early (issue 25): the lower total and lines, and the balance after the first payment follows', async () => {
    const rent = rental();
    await h.publish(placedEvent(rent), statusEvent(rent, 'PENDING', 'FOR_PAYMENT'));
    await until(rent.orderId, (p) => p.orderStatus === 'FOR_PAYMENT');
    expect((await confirmAs(h, h.accounting, await paymentIdOf(h, rent.orderId))).status).toBe(200); // the first day: 78.00
    expect(await until(rent.orderId, (p) => p.status === 'INITIAL_PAYMENT')).toMatchObject({ totalOrderPayment: '324.00', balance: '246.00' });
    // Back after 2 days: 2 × 16.50 × 2 + 45.00 × 2 = 156.00 (3 and 5 days were 324.00).
    await h.publish(
      eventEnvelope('order', {
        type: EVENTS.order.endedEarly,
        aggregateId: rent.orderId,
        data: {
          orderId: rent.orderId, orderNumber: rent.orderNumber, customerId: rent.customerId, seq: 1, days: -3, amount: '-168.00', totalAmount: '156.00', by: 'STAFF',
          returnOn: '2026-12-03',
          lines: [
            { lineId: crypto.randomUUID(), noOfRentalDays: 2, lineTotal: '66.00', dueDate: '2026-12-03' },
            { lineId: crypto.randomUUID(), noOfRentalDays: 2, lineTotal: '90.00', dueDate: '2026-12-03' },
          ],
        },
      }),
    );
    const after = await until(rent.orderId, (p) => p.totalOrderPayment === '156.00');
    expect(after).toMatchObject({ status: 'INITIAL_PAYMENT', totalPartialPayment: '78.00', balance: '78.00' });
    expect(after.lines.map((l: Json) => [l.noOfRentalDays, l.lineTotal])).toEqual([[2, '66.00'], [2, '90.00']]);
  });

  it('an event delivered again has no second effect (inbox)', async () => {
    const data = purchase();
    const toPayment = statusEvent(data, 'PENDING', 'FOR_PAYMENT');
    await h.publish(placedEvent(data), toPayment);
    await until(data.orderId, (p) => p.orderStatus === 'FOR_PAYMENT');
    const id = await paymentIdOf(h, data.orderId);
    expect((await confirmAs(h, h.accounting, id)).status).toBe(200);
    await h.publish(statusEvent(data, 'FOR_PAYMENT', 'PREPARING'));
    await until(data.orderId, (p) => p.orderStatus === 'PREPARING');
    // The same event again (a relay that published it twice past the stream's dedupe window):
    // applied again, it would put the order back to FOR_PAYMENT.
    await jetstream(h.nc).publish(toPayment.type, JSON.stringify(toPayment), { msgID: `${toPayment.id}-again` });
    // A later event of another order shows the consumer has gone past the duplicate.
    const marker = purchase();
    await h.publish(placedEvent(marker));
    await until(marker.orderId, () => true);
    expect(await payment(data.orderId)).toMatchObject({ orderStatus: 'PREPARING', status: 'PAID' });
    expect(await inboxCount(toPayment.id)).toBe(1);
  });

  it('a status event published before its order is held and applied once the order arrives', async () => {
    const data = rental();
    const early = statusEvent(data, 'PENDING', 'FOR_PAYMENT');
    await h.publish(early);
    await eventually(async () => (await inboxCount(early.id)) === 1, 10_000);
    expect(await payment(data.orderId)).toBeUndefined();
    await h.publish(placedEvent(data));
    expect(await until(data.orderId, () => true)).toMatchObject({ status: 'PENDING', orderStatus: 'FOR_PAYMENT', nextAction: 'PAY_PARTIAL' });
  });

  it('two replicas handling an order\'s placed event and its status change side by side: the status change is not lost', async () => {
    // Replicas share the durable consumer, so the two events can be in two batches at once. The
    // first batch's transaction is held open after its work; the second must wait for it, else it
    // misses the uncommitted payment and holds its event back for ever.
    const handle = orderEventHandler(createLogger('payment-test', 'silent'));
    const data = purchase();
    let opened!: () => void;
    const openedYet = new Promise<void>((r) => (opened = r));
    let commit!: () => void;
    const gate = new Promise<void>((r) => (commit = r));
    const first = h.orm.em.fork().transactional(async (tem) => {
      await handle(tem, [placedEvent(data)]);
      opened();
      await gate;
    });
    await openedYet;
    let secondDone = false;
    const second = h.orm.em.fork().transactional((tem) => handle(tem, [statusEvent(data, 'PENDING', 'FOR_PAYMENT')])).then(() => (secondDone = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(secondDone, 'the second batch waits for the first to commit').toBe(false);
    commit();
    await Promise.all([first, second]);
    expect(await payment(data.orderId)).toMatchObject({ orderStatus: 'FOR_PAYMENT', nextAction: 'MARK_AS_PAID' });
    const [held] = await h.orm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from payment.early_order_events where order_id = ?', [data.orderId]);
    expect(held!.n).toBe(0);
  });

  it('one batch with several orders placed (opened in one statement), one placed twice, held status events and a status change after its order: each applied as one by one', async () => {
    const handle = orderEventHandler(createLogger('payment-test', 'silent'));
    const [a, b, c, d] = [purchase(), rental(), purchase(), rental()];
    // b's and c's status changes come first: held back until their orders are placed.
    await h.orm.em.fork().transactional((tem) => handle(tem, [statusEvent(b, 'PENDING', 'FOR_PAYMENT'), statusEvent(c, 'PENDING', 'CANCELLED')]));
    await h.orm.em.fork().transactional((tem) =>
      handle(tem, [placedEvent(a), placedEvent(b), placedEvent(a), placedEvent(c), statusEvent(a, 'PENDING', 'FOR_PAYMENT'), placedEvent(d)]),
    );
    expect(await payment(a.orderId)).toMatchObject({ orderType: 'BUY', orderStatus: 'FOR_PAYMENT', totalOrderPayment: '175.98', balance: '175.98', nextAction: 'MARK_AS_PAID' });
    expect(await payment(b.orderId)).toMatchObject({ orderType: 'RENT', orderStatus: 'FOR_PAYMENT', totalPartialPayment: '78.00', nextAction: 'PAY_PARTIAL' });
    expect(await payment(c.orderId)).toMatchObject({ status: 'CANCELLED', orderStatus: 'CANCELLED', nextAction: null });
    expect(await payment(d.orderId)).toMatchObject({ status: 'PENDING', orderStatus: 'PENDING', totalOrderPayment: '324.00', totalPartialPayment: '78.00' });
    const ids = [a, b, c, d].map((o) => o.orderId);
    const [counts] = await h.orm.em.fork().execute<Array<{ payments: number; held: number }>>(
      `select (select count(*)::int from payment.payments where order_id = any(?::uuid[])) as payments,
              (select count(*)::int from payment.early_order_events where order_id = any(?::uuid[])) as held`,
      [`{${ids.join(',')}}`, `{${ids.join(',')}}`],
    );
    expect(counts).toEqual({ payments: 4, held: 0 });
  });
});
