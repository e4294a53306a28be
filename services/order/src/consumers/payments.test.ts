import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream } from '@nats-io/jetstream';
import { EVENTS } from '@dme/contracts';
import { eventEnvelope } from '@dme/platform';
import { eventually, type Caller, type Json } from '@dme/testing';
import { paymentConfirmed, place, startOrdering, type OrderHarness } from '../test/harness';

let h: OrderHarness;
let sale: Json;
let rental: Json;
beforeAll(async () => {
  h = await startOrdering();
  sale = await h.product({ brand: 'Braun', name: `Thermo ${randomUUID().slice(0, 6)}`, type: 'FOR_SALE', price: '19.99', damageCharges: '0.00' });
  rental = await h.product({ brand: 'Drive', name: `Chair ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '15.00', damageCharges: '250.00' });
  await h.addStock({ productID: sale.id, quantity: 100 });
  await h.addStock({ productID: rental.id, quantity: 100 });
});
afterAll(() => h?.close());

const buy = async (c: Caller, quantity = 2) => (await place(h, c, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: sale.id, quantity }] })).body.order;
const rent = async (c: Caller, quantity = 2, days = 7) =>
  (await place(h, c, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: rental.id, quantity, noOfRentalDays: days }] })).body.order;
const confirm = async (order: Json) => {
  const res = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'FOR_PAYMENT' }, { as: h.staff });
  expect(res.status).toBe(200);
  return res.body.order;
};
const read = async (order: Json) => (await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order;
const statusChanges = (orderId: string) =>
  h.orderOrm.em
    .fork()
    .execute<Array<{ payload: Json }>>(`select payload from ordering.outbox where subject = ? and payload -> 'data' ->> 'orderId' = ? order by created_at`, [EVENTS.order.statusChanged, orderId]);
/** Waits until the consumer has handled this event (its id in the inbox). */
const handled = (eventId: string) =>
  eventually(async () => (await h.orderOrm.em.fork().execute('select 1 from ordering.inbox where event_id = ?', [eventId])).length > 0, 10_000);

describe('dme.payment.confirmed', () => {
  it("a purchase's payment moves FOR_PAYMENT → PREPARING once and fills Order.payment (PAID, records); a redelivery changes nothing", async () => {
    const c = h.customer();
    const order = await confirm(await buy(c));
    const event = paymentConfirmed(order, 'first', { invoiceNumber: 'INV-0001', receiptNumber: 'OR-0001', note: 'cash', recordId: randomUUID() });
    await h.publish(event);
    await handled(event.id);
    // The same event delivered again (JetStream's dedupe bypassed, as after a lost ack).
    await jetstream(h.nc).publish(event.type, JSON.stringify(event), { msgID: randomUUID() });
    // A later event of the same payment is handled after it (events of one aggregate go in stream order).
    const barrier = { ...event, id: randomUUID(), type: 'dme.payment.noted' };
    await jetstream(h.nc).publish('dme.payment.noted', JSON.stringify(barrier), { msgID: barrier.id });
    await handled(barrier.id);

    const o = await read(order);
    expect(o.status).toBe('PREPARING');
    expect(o.orderTracker.map((t: { status: string }) => t.status)).toEqual(['PENDING', 'FOR_PAYMENT', 'PREPARING']);
    expect(o.orderTracker[2].title).toBe('Payment received, preparing the order');
    expect(o.payment).toEqual({
      status: 'PAID',
      totalOrderPayment: '39.98',
      totalPartialPayment: null,
      extraCharge: null,
      overallTotal: '39.98',
      balance: '0.00',
      dueDate: null,
      records: [{ id: event.data.recordId, type: 'FULL', invoiceNumber: 'INV-0001', receiptNumber: 'OR-0001', amount: '39.98', note: 'cash', createdAt: event.data.confirmedAt }],
      deposit: '0.00', lateFees: null, depositApplied: null, depositRefund: null, refunds: [],
    });
    // The customer reads the same.
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: c })).body.order.payment).toEqual(o.payment);
    const changes = await statusChanges(order.id);
    expect(changes.map((e) => [e.payload.data.from, e.payload.data.to])).toEqual([
      ['PENDING', 'FOR_PAYMENT'],
      ['FOR_PAYMENT', 'PREPARING'],
    ]);
    // Moved by the event, on behalf of who took the payment.
    expect(changes[1]!.payload.data.by).toBe(event.data.accommodatedBy);
    const [inbox] = await h.orderOrm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from ordering.inbox where event_id = ?', [event.id]);
    expect(inbox!.n).toBe(1);
  });

  it("a rental's first (partial) payment: PREPARING, INITIAL_PAYMENT with the first day's total", async () => {
    const order = await confirm(await rent(h.customer(), 2, 7));
    expect(order.partialPayment).toBe('30.00');
    const event = paymentConfirmed(order, 'first');
    await h.publish(event);
    await eventually(async () => (await read(order)).status === 'PREPARING', 10_000);
    expect((await read(order)).payment).toEqual({
      status: 'INITIAL_PAYMENT',
      totalOrderPayment: '210.00',
      totalPartialPayment: '30.00',
      extraCharge: null,
      overallTotal: null,
      balance: null,
      dueDate: null,
      records: [{ type: 'PARTIAL', invoiceNumber: event.data.invoiceNumber, receiptNumber: event.data.receiptNumber, amount: '30.00', note: '', createdAt: event.data.confirmedAt }],
      deposit: '0.00', lateFees: null, depositApplied: null, depositRefund: null, refunds: [],
    });
  });

  it('a payment for an order not waiting for it changes the payment data, not the status', async () => {
    // Not confirmed by staff yet: PENDING.
    const pending = await buy(h.customer());
    const early = paymentConfirmed(pending, 'first');
    await h.publish(early);
    await handled(early.id);
    const p = await read(pending);
    expect(p.status).toBe('PENDING');
    expect(p.orderTracker).toHaveLength(1);
    expect(p.payment.status).toBe('UNPAID');
    const [row] = await h.orderOrm.em.fork().execute<Array<{ status: string }>>('select status from ordering.order_payments where order_id = ?', [pending.id]);
    expect(row!.status).toBe('PAID');

    // A rental in FOR_PAYMENT given a FULL payment (not its first): no move either.
    const rental = await confirm(await rent(h.customer()));
    const wrong = paymentConfirmed(rental, 'full');
    await h.publish(wrong);
    await handled(wrong.id);
    expect((await read(rental)).status).toBe('FOR_PAYMENT');
    expect(await statusChanges(rental.id)).toHaveLength(1);

    // A cancelled order stays cancelled.
    const cancelled = await confirm(await buy(h.customer()));
    expect((await h.order.post(`/api/orders/${cancelled.id}/transitions`, { to: 'CANCELLED' }, { as: h.staff })).status).toBe(200);
    const late = paymentConfirmed(cancelled, 'first');
    await h.publish(late);
    await handled(late.id);
    expect((await read(cancelled)).status).toBe('CANCELLED');

    // An order this service does not have: handled (acknowledged), nothing written.
    const unknown = paymentConfirmed({ ...pending, id: randomUUID() }, 'first');
    await h.publish(unknown);
    await handled(unknown.id);
    expect(await h.orderOrm.em.fork().execute('select 1 from ordering.order_payments where order_id = ?', [unknown.data.orderId])).toEqual([]);
  });

  it('cycle payments of a rental billed by cycles (issue 29): each kept once by its number, named on the order; the status does not move', async () => {
    const order = await confirm(await rent(h.customer(), 1, 60));
    const first = paymentConfirmed(order, 'first', { recordId: randomUUID() });
    await h.publish(first);
    await handled(first.id);
    const paymentId = first.data.paymentId;
    const cycle = (n: number, amount: string) =>
      paymentConfirmed(order, 'first', { paymentId, type: 'CYCLE', status: 'INITIAL_PAYMENT', cycle: n, amount, recordId: randomUUID(), invoiceNumber: `INV-C${n}` });
    const one = cycle(1, '435.00');
    const two = cycle(2, '450.00');
    await h.publish(one);
    await h.publish(two);
    // Cycle 2 delivered again (as after a lost ack): kept once.
    await jetstream(h.nc).publish(two.type, JSON.stringify({ ...two, id: randomUUID() }), { msgID: randomUUID() });
    const barrier = { ...two, id: randomUUID(), type: 'dme.payment.noted' };
    await jetstream(h.nc).publish('dme.payment.noted', JSON.stringify(barrier), { msgID: barrier.id });
    await handled(barrier.id);
    const o = await read(order);
    expect(o.status).toBe('PREPARING');
    expect(o.payment.records.map((r: Json) => [r.type, r.cycle ?? null, r.amount, r.invoiceNumber])).toEqual([
      ['PARTIAL', null, '15.00', first.data.invoiceNumber],
      ['CYCLE', 1, '435.00', 'INV-C1'],
      ['CYCLE', 2, '450.00', 'INV-C2'],
    ]);
  });

  it('a payment taken for an order cancelled meanwhile (issue 22): the order stays cancelled and shows the payment, then REFUND_DUE with the amount once the payment service says so', async () => {
    const c = h.customer();
    const order = await rent(c, 2, 7);
    await confirm(order);
    expect((await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'CANCELLED' }, { as: c })).status).toBe(200);
    const paid = paymentConfirmed({ ...order, status: 'FOR_PAYMENT' }, 'first', { recordId: randomUUID() });
    await h.publish(paid);
    await handled(paid.id);
    const kept = await read(order);
    expect(kept.status).toBe('CANCELLED');
    expect(await statusChanges(order.id)).toHaveLength(2);
    // Not UNPAID: the money taken shows, with its record.
    expect(kept.payment).not.toHaveProperty('refundDue');
    expect(kept.payment).toMatchObject({ status: 'INITIAL_PAYMENT', records: [{ id: paid.data.recordId, type: 'PARTIAL', amount: '30.00' }] });

    const refund = eventEnvelope('payment', {
      type: EVENTS.payment.refundDue,
      aggregateId: paid.data.paymentId,
      version: 2,
      data: { paymentId: paid.data.paymentId, orderId: order.id, orderNumber: order.orderNumber, customerId: c.userId, orderType: 'RENT', status: 'REFUND_DUE', amount: '30.00' },
    });
    await h.publish(refund);
    await handled(refund.id);
    for (const o of [await read(order), (await h.order.get(`/api/my/orders/${order.id}`, { as: c })).body.order]) {
      expect(o.status).toBe('CANCELLED');
      expect(o.payment).toMatchObject({ status: 'REFUND_DUE', refundDue: '30.00', totalOrderPayment: '210.00', records: [{ id: paid.data.recordId, invoiceNumber: paid.data.invoiceNumber }] });
    }
    // The confirmation delivered again does not take REFUND_DUE back (statuses only move forward).
    await jetstream(h.nc).publish(paid.type, JSON.stringify(paid), { msgID: randomUUID() });
    const barrier = { ...refund, id: randomUUID(), type: 'dme.payment.noted' };
    await jetstream(h.nc).publish('dme.payment.noted', JSON.stringify(barrier), { msgID: barrier.id });
    await handled(barrier.id);
    expect((await read(order)).payment).toMatchObject({ status: 'REFUND_DUE', refundDue: '30.00' });

    // Issue 29: accounting records how it was paid back: the order shows REFUNDED and the refund, once.
    const recorded = eventEnvelope('payment', {
      type: EVENTS.payment.refundRecorded,
      aggregateId: paid.data.paymentId,
      version: 3,
      data: {
        paymentId: paid.data.paymentId,
        orderId: order.id,
        orderNumber: order.orderNumber,
        customerId: c.userId,
        orderType: 'RENT',
        refundId: randomUUID(),
        number: 'RF-20261128-000007',
        kind: 'CANCELLED',
        amount: '30.00',
        method: 'GCASH',
        status: 'REFUNDED',
        refundedAt: '2026-11-28T03:00:00.000Z',
      },
    });
    await h.publish(recorded);
    await handled(recorded.id);
    await jetstream(h.nc).publish(recorded.type, JSON.stringify({ ...recorded, id: randomUUID() }), { msgID: randomUUID() });
    const barrier2 = { ...refund, id: randomUUID(), type: 'dme.payment.noted' };
    await jetstream(h.nc).publish('dme.payment.noted', JSON.stringify(barrier2), { msgID: barrier2.id });
    await handled(barrier2.id);
    for (const o of [await read(order), (await h.order.get(`/api/my/orders/${order.id}`, { as: c })).body.order]) {
      expect(o.payment.status).toBe('REFUNDED');
      expect(o.payment.refunds).toEqual([{ number: 'RF-20261128-000007', kind: 'CANCELLED', amount: '30.00', method: 'GCASH', refundedAt: '2026-11-28T03:00:00.000Z' }]);
    }
  });

  it("on real NATS: a confirm published while the order service's consumer is stopped moves the order once it starts again", async () => {
    const order = await confirm(await buy(h.customer()));
    await h.payments.stop();
    try {
      const event = paymentConfirmed(order);
      await h.publish(event);
      await new Promise((r) => setTimeout(r, 1000));
      expect((await read(order)).status).toBe('FOR_PAYMENT');
    } finally {
      await h.payments.start();
    }
    await eventually(async () => (await read(order)).status === 'PREPARING', 15_000);
    expect((await read(order)).orderTracker.filter((t: { status: string }) => t.status === 'PREPARING')).toHaveLength(1);
  });
});
