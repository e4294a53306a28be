import { centsToString, EVENT_DATA, EVENTS, rentalPartialCents, toCents, type DaysChangeKind, type EventData, type EventEnvelope, type PaymentDaysChange } from '@dme/contracts';
import { lockEventOrders, qualified, sql, writeEvent, type Db, newId } from '@dme/platform';
import { onExtended, onOrderStatus, opening, refundDue } from './payment.rules';
import { SOURCE } from './payment.service';
import { cents, figuresOf, findPayment, money, saveFigures } from './payment.store';
import { openRefund } from './refunds';

type Placed = EventData<typeof EVENTS.order.placed>;
type StatusChanged = EventData<typeof EVENTS.order.statusChanged>;
type Extended = EventData<typeof EVENTS.order.extended>;

/** What applying an order event did (for the consumer's log). */
export type FeedOutcome = 'opened' | 'duplicate' | 'applied' | 'held' | 'refund-due';

const money2 = (v: string) => centsToString(toCents(v));

/**
 * `dme.order.placed` opens the order's payment: PENDING, with the order's number, type, customer,
 * delivery address, lines (names and variants, for the invoice) and totals; a rental's partial
 * payment is its first-day total (taken from the event, or computed from its lines when an older
 * event lacks it). Status events that arrived before it (held back) are applied after, in order.
 *
 * Several placed events (a run of them in a batch) open their payments in one statement: orders
 * are independent of one another, so this is what opening them one by one would do. An order
 * placed twice opens once ('duplicate' for the others).
 */
export async function openPayments(db: Db, placed: ReadonlyArray<{ data: Placed; occurredAt: string }>): Promise<FeedOutcome[]> {
  const rows = placed.map(({ data, occurredAt }, n) => {
    const total = toCents(data.totalAmount);
    const firstDays = () => rentalPartialCents(data.lines.map((l) => ({ unitCents: toCents(l.unitPrice), quantity: l.quantity })));
    const partial = data.type === 'RENT' ? (data.partialPayment !== null ? toCents(data.partialPayment) : firstDays()) : null;
    const f = opening(data.type, total, partial, toCents(data.deposit));
    return {
      n,
      id: newId(),
      order_id: data.orderId,
      order_number: data.orderNumber,
      order_type: data.type,
      order_status: f.orderStatus,
      customer_id: data.customerId,
      customer_name: data.customer?.name ?? '',
      customer: data.customer ?? null,
      delivery: data.delivery ?? null,
      lines: data.lines.map((l) => ({
        productName: l.productName,
        variantName: l.variantName,
        subVariantName: l.subVariantName,
        quantity: l.quantity,
        noOfRentalDays: l.noOfRentalDays,
        unitPrice: money2(l.unitPrice),
        lineTotal: money2(l.lineTotal),
        deposit: money2(l.deposit),
        rentToOwn: l.rentToOwn,
      })),
      status: f.status,
      total_order_payment: centsToString(f.total),
      total_partial_payment: money(f.partial),
      balance: centsToString(f.balance),
      created_at: new Date(data.createdAt ?? occurredAt).toISOString(),
      deposit: centsToString(f.deposit),
      billing: data.type === 'RENT' ? data.billing : 'UPFRONT',
    };
  });
  if (rows.length === 0) return [];
  const opened = await sql<{ order_id: string }>(
    db,
    `insert into ${qualified(db, 'payments')} (id, order_id, order_number, order_type, order_status, customer_id, customer_name, customer, delivery,
            lines, status, type, total_order_payment, total_partial_payment, balance, created_at, deposit, billing)
     select x.id, x.order_id, x.order_number, x.order_type, x.order_status, x.customer_id, x.customer_name, x.customer, x.delivery,
            x.lines, x.status, null, x.total_order_payment, x.total_partial_payment, x.balance, x.created_at, x.deposit, x.billing
     from jsonb_to_recordset($1::jsonb) as x(n int, id uuid, order_id uuid, order_number text, order_type text, order_status text,
            customer_id uuid, customer_name text, customer jsonb, delivery jsonb, lines jsonb, status text, total_order_payment numeric(12,2),
            total_partial_payment numeric(12,2), balance numeric(12,2), created_at timestamptz, deposit numeric(12,2), billing text)
     order by x.n
     on conflict (order_id) do nothing returning order_id`,
    [JSON.stringify(rows)],
  );
  const openedIds = new Set(opened.map((o) => o.order_id));
  const outcomes = rows.map((r) => (openedIds.delete(r.order_id) ? 'opened' : 'duplicate') as FeedOutcome);
  if (opened.length === 0) return outcomes;
  // Status events held back for these orders, in the order they came (rarely any).
  const early = await sql<{ occurred_at: Date; data: StatusChanged }>(
    db,
    `with d as (delete from ${qualified(db, 'early_order_events')} where order_id = any($1::uuid[]) returning seq, occurred_at, data)
     select occurred_at, data from d order by seq`,
    [opened.map((o) => o.order_id)],
  );
  for (const e of early) await applyOrderStatus(db, e.data, new Date(e.occurred_at).toISOString());
  return outcomes;
}

/**
 * `dme.order.status_changed` keeps the order's status on its payment and applies what it means
 * for the payment (payment.rules onOrderStatus). For an order whose payment is not opened yet, the
 * event is held back and applied when `dme.order.placed` arrives. A cancellation that finds a
 * payment taken makes it REFUND_DUE and records `dme.payment.refund_due` in the outbox, in the
 * consumer's transaction.
 */
export async function applyOrderStatus(db: Db, data: StatusChanged, occurredAt: string, eventId: string = newId()): Promise<FeedOutcome> {
  const row = await findPayment(db, 'order_id', data.orderId, { lock: true });
  if (!row) {
    await sql(db, `insert into ${qualified(db, 'early_order_events')} (order_id, event_id, occurred_at, data) values ($1, $2, $3, $4::jsonb)`, [
      data.orderId,
      eventId,
      new Date(occurredAt),
      JSON.stringify(data),
    ]);
    return 'held';
  }
  const before = figuresOf(row);
  const settlement =
    data.lateFees !== null && data.depositApplied !== null && data.depositRefund !== null
      ? { lateFees: toCents(data.lateFees), depositApplied: toCents(data.depositApplied), depositRefund: toCents(data.depositRefund) }
      : null;
  const after = onOrderStatus(before, data.to, cents(data.extraCharge), new Date(occurredAt), data.fullPaymentDue, settlement, data.from);
  const refund = before.status !== 'REFUND_DUE' ? refundDue(after) : null;
  await saveFigures(db, row.id, after, refund !== null);
  // Issue 29: the rest of a rental's deposit is owed back from its return (a refund with a number).
  if (after.status === 'FOR_FULL_PAYMENT' && after.depositRefund !== null) await openRefund(db, row.id, 'DEPOSIT', after.depositRefund);
  if (refund === null) return 'applied';
  await openRefund(db, row.id, 'CANCELLED', refund);
  // A payment was taken while the order was being cancelled: never silent. The payment shows
  // REFUND_DUE to accounting; the order service learns it from this event (the customer's page).
  await writeEvent(db, SOURCE, {
    type: EVENTS.payment.refundDue,
    aggregateId: row.id,
    version: row.version + 1,
    data: {
      paymentId: row.id,
      orderId: row.order_id,
      orderNumber: row.order_number,
      customerId: row.customer_id,
      orderType: row.order_type,
      status: after.status,
      amount: centsToString(refund),
    },
  });
  return 'refund-due';
}

/**
 * Locks the orders of a batch for the rest of its transaction, before any of their events is
 * applied. Replicas share the consumer, so an order's placed event and its status change can be
 * handled side by side by two of them: without the lock each misses the other's uncommitted row
 * (the payment, the held-back status event), the status event stays held and the payment never
 * becomes payable. With it the second waits for the first to commit, then sees its row.
 */
export function lockOrders(db: Db, events: readonly EventEnvelope[]): Promise<void> {
  return lockEventOrders(db, 'payment-order', events, [EVENTS.order.placed, EVENTS.order.statusChanged, EVENTS.order.extended, EVENTS.order.endedEarly]);
}

/**
 * `dme.order.extended` and `dme.order.ended_early` (issue 25): the order's new total and its lines'
 * days and totals (for the invoice), and the balance that follows (payment.rules onExtended). The
 * figures are absolute, so applying it again changes nothing. The order was placed before its days
 * could change, and order events arrive in stream order; if its payment is missing all the same,
 * the batch fails and is delivered again rather than lose the change.
 */
export async function applyOrderExtended(db: Db, data: Extended, kind: DaysChangeKind): Promise<FeedOutcome> {
  const row = await findPayment(db, 'order_id', data.orderId, { lock: true });
  if (!row) throw new Error(`payment of order ${data.orderId} not found for the change of its days`);
  await saveFigures(db, row.id, onExtended(figuresOf(row), toCents(data.totalAmount)), true);
  await sql(
    db,
    `update ${qualified(db, 'payments')} p
        set total_order_payment = $2,
            lines = (select coalesce(jsonb_agg(case when x.n <= jsonb_array_length($3::jsonb)
                                                    then x.line || jsonb_build_object('noOfRentalDays', ($3::jsonb -> (x.n::int - 1)) -> 'noOfRentalDays', 'lineTotal', ($3::jsonb -> (x.n::int - 1)) ->> 'lineTotal')
                                                    else x.line end order by x.n), '[]'::jsonb)
                       from jsonb_array_elements(p.lines) with ordinality as x(line, n)),
            -- Issue 29: the change itself, once by its number (the invoice of the payment that pays it lists it).
            extensions = case when p.extensions @> jsonb_build_array(jsonb_build_object('seq', $4::int)) then p.extensions
                              else p.extensions || jsonb_build_array($5::jsonb) end
      where p.id = $1 and p.status not in ('PAID', 'CANCELLED', 'REFUND_DUE', 'REFUNDED')`,
    [
      row.id,
      centsToString(toCents(data.totalAmount)),
      JSON.stringify(data.lines.map((l) => ({ noOfRentalDays: l.noOfRentalDays, lineTotal: money2(l.lineTotal) }))),
      data.seq,
      JSON.stringify({ seq: data.seq, kind, days: data.days, amount: money2(data.amount), by: data.by } satisfies PaymentDaysChange),
    ],
  );
  return 'applied';
}

/** Order events in stream order; other order events (a checkout abandoned) do not concern payments. */
export async function applyOrderEvent(db: Db, event: EventEnvelope): Promise<FeedOutcome | null> {
  return (await applyOrderEvents(db, [event]))[0] ?? null;
}

/**
 * A batch of order events in stream order, each event's outcome in its place: each run of placed
 * events opens its payments together (openPayments), every other event is applied on its own.
 */
export async function applyOrderEvents(db: Db, events: readonly EventEnvelope[]): Promise<Array<FeedOutcome | null>> {
  const outcomes: Array<FeedOutcome | null> = [];
  for (let i = 0; i < events.length; ) {
    let end = i;
    while (end < events.length && events[end]!.type === EVENTS.order.placed) end++;
    if (end > i) {
      const run = events.slice(i, end).map((e) => ({ data: EVENT_DATA[EVENTS.order.placed].parse(e.data), occurredAt: e.occurredAt }));
      outcomes.push(...(await openPayments(db, run)));
      i = end;
      continue;
    }
    const event = events[i++]!;
    if (event.type === EVENTS.order.statusChanged) {
      outcomes.push(await applyOrderStatus(db, EVENT_DATA[EVENTS.order.statusChanged].parse(event.data), event.occurredAt, event.id));
    } else if (event.type === EVENTS.order.extended) {
      outcomes.push(await applyOrderExtended(db, EVENT_DATA[EVENTS.order.extended].parse(event.data), 'EXTEND'));
    } else if (event.type === EVENTS.order.endedEarly) {
      outcomes.push(await applyOrderExtended(db, EVENT_DATA[EVENTS.order.endedEarly].parse(event.data), 'END_EARLY'));
    } else {
      outcomes.push(null);
    }
  }
  return outcomes;
}
