import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, EVENT_DATA, PAYMENT_RANK, paymentTransition, type EventData, type EventEnvelope } from '@dme/contracts';
import { qualified, startConsumer, type Logger, type NatsConnection, type RunningConsumer } from '@dme/platform';
import { decide } from '../process/can-perform';
import { loadOrder } from '../modules/orders/read';
import type { Caller } from '../process/facts';
import { perform } from '../process/transitions';

type Confirmed = EventData<typeof EVENTS.payment.confirmed>;
type RefundDue = EventData<typeof EVENTS.payment.refundDue>;
type RefundRecorded = EventData<typeof EVENTS.payment.refundRecorded>;

/**
 * The payment read model (SPEC §4), from `dme.payment.confirmed`, and the process rows the event
 * moves: the payment's status and figures (forward only) and its record are kept for the order's
 * display; then, if the order waits for exactly this payment, the event row of the process table
 * from its status is taken (FOR_PAYMENT → PREPARING, FOR_FULL_PAYMENT → COMPLETED) through
 * canPerform, with its tracker entry and status event, in the same transaction as the inbox
 * record (so once). A payment for an order in another status changes the payment data only (and
 * is logged). A payment for a CANCELLED order (taken while it was being cancelled) does not bring
 * the order back: its stock is released; the payment data is kept, and the payment service, which
 * learns of the cancellation too, makes the payment REFUND_DUE and says so (`dme.payment.refund_due`,
 * applyRefundDue), which the order then shows.
 */
export async function applyPaymentEvent(em: EntityManager, event: EventEnvelope, logger: Logger): Promise<void> {
  if (event.type === EVENTS.payment.refundDue) return applyRefundDue(em, event, logger);
  if (event.type === EVENTS.payment.refundRecorded) return applyRefundRecorded(em, event, logger);
  if (event.type !== EVENTS.payment.confirmed) return;
  const d: Confirmed = EVENT_DATA[EVENTS.payment.confirmed].parse(event.data);
  const [locked] = await em.execute<Array<{ id: string }>>(`select id from ${qualified(em, 'orders')} where id = ? for update`, [d.orderId]);
  if (!locked) {
    logger.warn({ eventId: event.id, orderId: d.orderId }, 'payment confirmed for an order this service does not have; ignored');
    return;
  }
  await em.execute(
    `insert into ${qualified(em, 'order_payments')} as p (order_id, payment_id, status, status_rank, total_partial_payment, extra_charge, overall_total, balance, due_date, updated_at, order_type)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?::date, now(), (select o.type from ${qualified(em, 'orders')} o where o.id = ?))
     on conflict (order_id) do update set payment_id = excluded.payment_id, status = excluded.status, status_rank = excluded.status_rank,
       total_partial_payment = excluded.total_partial_payment, extra_charge = excluded.extra_charge, overall_total = excluded.overall_total,
       balance = excluded.balance, due_date = excluded.due_date, updated_at = now()
     where p.status_rank <= excluded.status_rank`,
    [d.orderId, d.paymentId, d.status, PAYMENT_RANK[d.status], d.totalPartialPayment, d.extraCharge, d.overallTotal, d.balance, d.dueDate, d.orderId],
  );
  await em.execute(
    `insert into ${qualified(em, 'order_payment_records')} (id, order_id, payment_id, type, invoice_number, receipt_number, amount, note, created_at, payment_record_id, cycle)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (order_id, type, coalesce(cycle, 0)) do nothing`,
    [event.id, d.orderId, d.paymentId, d.type, d.invoiceNumber, d.receiptNumber, d.amount, d.note, d.confirmedAt, d.recordId, d.cycle],
  );
  const { facts: order } = await loadOrder(em, d.orderId, { detail: false });
  if (order.status === 'CANCELLED') {
    logger.warn(
      { eventId: event.id, orderId: d.orderId, paymentId: d.paymentId, amount: d.amount },
      'payment confirmed for a cancelled order: the order stays cancelled, the payment is kept (the payment service makes it REFUND_DUE)',
    );
    return;
  }
  // The process row this payment triggers from the order's status (the first payment in
  // FOR_PAYMENT, a rental's full one in FOR_FULL_PAYMENT, a payment that made a rent-to-own rental
  // the customer's while it is out — issue 29), or none: the order is not waiting for it.
  const row = paymentTransition(order.type, order.status, d.type, d.owned);
  if (!row) {
    logger.info(
      { eventId: event.id, orderId: d.orderId, orderStatus: order.status, paymentType: d.type },
      'payment confirmed for an order not waiting for it: payment data kept, status unchanged',
    );
    return;
  }
  const caller: Caller = { kind: 'event', event: event.type, by: d.accommodatedBy };
  const decision = decide({ order, caller, input: {}, now: new Date() }, row.to);
  if (!decision.ok) {
    logger.warn({ eventId: event.id, orderId: d.orderId, reason: decision.message }, 'payment confirmed but the process refused the step');
    return;
  }
  await perform(em, order, row.to, caller, {}, undefined);
}

/**
 * `dme.payment.refund_due`: a payment was taken for the order after it had been cancelled. The
 * payment read model shows REFUND_DUE with the amount owed back (forward only, like every payment
 * status); the order's status does not change.
 */
async function applyRefundDue(em: EntityManager, event: EventEnvelope, logger: Logger): Promise<void> {
  const d: RefundDue = EVENT_DATA[EVENTS.payment.refundDue].parse(event.data);
  const [locked] = await em.execute<Array<{ id: string }>>(`select id from ${qualified(em, 'orders')} where id = ? for update`, [d.orderId]);
  if (!locked) {
    logger.warn({ eventId: event.id, orderId: d.orderId }, 'refund due for an order this service does not have; ignored');
    return;
  }
  await em.execute(
    `insert into ${qualified(em, 'order_payments')} as p (order_id, payment_id, status, status_rank, refund_due, updated_at, order_type)
     values (?, ?, ?, ?, ?, now(), (select o.type from ${qualified(em, 'orders')} o where o.id = ?))
     on conflict (order_id) do update set payment_id = excluded.payment_id, status = excluded.status, status_rank = excluded.status_rank,
       refund_due = excluded.refund_due, updated_at = now()
     where p.status_rank <= excluded.status_rank`,
    [d.orderId, d.paymentId, d.status, PAYMENT_RANK[d.status], d.amount, d.orderId],
  );
  logger.warn({ eventId: event.id, orderId: d.orderId, paymentId: d.paymentId, amount: d.amount }, 'refund due on a cancelled order: shown on the order');
}

/**
 * `dme.payment.refund_recorded` (issue 29): a refund was paid back. The order keeps it for its
 * display (once per refund); a cancelled order's payment is REFUNDED then (forward only).
 */
async function applyRefundRecorded(em: EntityManager, event: EventEnvelope, logger: Logger): Promise<void> {
  const d: RefundRecorded = EVENT_DATA[EVENTS.payment.refundRecorded].parse(event.data);
  const [locked] = await em.execute<Array<{ id: string }>>(`select id from ${qualified(em, 'orders')} where id = ? for update`, [d.orderId]);
  if (!locked) {
    logger.warn({ eventId: event.id, orderId: d.orderId }, 'refund recorded for an order this service does not have; ignored');
    return;
  }
  await em.execute(
    `insert into ${qualified(em, 'order_refunds')} (refund_id, order_id, number, kind, amount, method, refunded_at) values (?, ?, ?, ?, ?, ?, ?)
     on conflict (refund_id) do nothing`,
    [d.refundId, d.orderId, d.number, d.kind, d.amount, d.method, d.refundedAt],
  );
  if (d.status === 'REFUNDED') {
    await em.execute(
      `update ${qualified(em, 'order_payments')} set status = ?, status_rank = ?, updated_at = now() where order_id = ? and status_rank <= ?`,
      [d.status, PAYMENT_RANK[d.status], d.orderId, PAYMENT_RANK[d.status]],
    );
  }
}

/** The order service's consumer of payment events (durable, shared by replicas). */
export function startPaymentConsumer(opts: { nc: NatsConnection; em: EntityManager; logger: Logger; durablePrefix?: string; afterCommit?: () => void }): Promise<RunningConsumer> {
  return startConsumer({
    ...opts,
    durable: `${opts.durablePrefix ?? 'order'}-payment`,
    subjects: ['dme.payment.>'],
    handle: (em, event) => applyPaymentEvent(em, event, opts.logger),
  });
}
