import {
  balanceCents,
  centsToString,
  EVENT_DATA,
  EVENTS,
  firstDayCents,
  fullPaymentDueDate,
  ORDER_STATUSES,
  paymentStatusOf,
  toCents,
  type EventData,
  type EventEnvelope,
} from '@dme/contracts';
import { lockEventOrders, qualified, sql, type Db } from '@dme/platform';

/*
 * The reporting read models, from events only (DESIGN §7). One function applies a batch of events
 * in stream order; the live consumers (one durable per subject tree) and the rebuild (one ordered
 * consumer over the whole stream) both call it, so rebuilt tables equal the live ones.
 *
 * Events of one order travel on three subjects (order placed / status changed, payment confirmed)
 * and may arrive in any order across them (a relay batch that failed halfway, three consumers).
 * So what an event says is kept as a fact (the order and its lines, one row per status change,
 * one row per payment), written at most once, and the order's derived columns are recomputed from
 * all its facts after each batch: an event that arrives before its order waits in its table until
 * the order comes, and the newest status change (by its time) always wins, whatever the order of
 * arrival.
 */

type Placed = EventData<typeof EVENTS.order.placed>;
type StatusChanged = EventData<typeof EVENTS.order.statusChanged>;
type Confirmed = EventData<typeof EVENTS.payment.confirmed>;
type RefundRecorded = EventData<typeof EVENTS.payment.refundRecorded>;
type Product = EventData<typeof EVENTS.catalog.productCreated>;

/** Subjects the reporting service listens to (nats-server 2.9: one filter per consumer). */
export const REPORTING_SUBJECTS = ['dme.catalog.>', 'dme.order.>', 'dme.payment.>'] as const;

/** Applies events (already deduplicated by the caller's inbox) in the caller's transaction. */
export async function applyReportingEvents(db: Db, events: readonly EventEnvelope[]): Promise<void> {
  await lockOrders(db, events);
  const touched = new Set<string>();
  // Facts are written once and do not depend on one another's order (the derived columns are
  // recomputed from all of them after the batch), so each kind goes in one statement per batch.
  const facts: Facts = { placed: [], statuses: [], payments: [], refunds: [] };
  const placedIds = new Set<string>();
  for (const event of events) {
    switch (event.type) {
      case EVENTS.catalog.productCreated:
      case EVENTS.catalog.productUpdated:
        await upsertProduct(db, EVENT_DATA[EVENTS.catalog.productCreated].parse(event.data), event.version);
        break;
      case EVENTS.order.placed: {
        const data = EVENT_DATA[EVENTS.order.placed].parse(event.data);
        // An order placed twice: its first event holds (as when applied one at a time).
        if (!placedIds.has(data.orderId)) facts.placed.push(orderRow(data, event.occurredAt));
        placedIds.add(data.orderId);
        touched.add(data.orderId);
        break;
      }
      case EVENTS.order.statusChanged: {
        const data = EVENT_DATA[EVENTS.order.statusChanged].parse(event.data);
        facts.statuses.push(statusRow(event.id, data, event.occurredAt));
        touched.add(data.orderId);
        break;
      }
      case EVENTS.payment.confirmed: {
        const data = EVENT_DATA[EVENTS.payment.confirmed].parse(event.data);
        facts.payments.push(paymentRow(data, event.version));
        touched.add(data.orderId);
        break;
      }
      case EVENTS.payment.refundRecorded: {
        const data = EVENT_DATA[EVENTS.payment.refundRecorded].parse(event.data);
        facts.refunds.push(refundRow(data));
        // A cancelled order's payment paid back moves its payment status (REFUND_DUE → REFUNDED).
        if (data.kind === 'CANCELLED') touched.add(data.orderId);
        break;
      }
      default:
        break;
    }
  }
  await insertFacts(db, facts);
  if (touched.size > 0) await refreshOrders(db, [...touched]);
}

/**
 * The orders of the batch, locked for the rest of its transaction before any of their facts is
 * written: the consumers of order and payment events run side by side, and without the lock
 * each would recompute an order without the other's uncommitted fact (a payment lost under a
 * status change). Taken in one sorted pass, so two batches never wait on each other in a cycle.
 */
function lockOrders(db: Db, events: readonly EventEnvelope[]): Promise<void> {
  return lockEventOrders(db, 'reporting-order', events, [EVENTS.order.placed, EVENTS.order.statusChanged, EVENTS.payment.confirmed, EVENTS.payment.refundRecorded]);
}

/** A product's brand and name: a snapshot applies only when newer than the one held. */
async function upsertProduct(db: Db, p: Product, version: number): Promise<void> {
  await sql(
    db,
    `insert into ${qualified(db, 'products')} as p (id, brand, name, version) values ($1, $2, $3, $4)
     on conflict (id) do update set brand = excluded.brand, name = excluded.name, version = excluded.version
     where p.version < excluded.version`,
    [p.productId, p.brand, p.name, version],
  );
}

/** The facts of a batch of events, by kind: each kind is written in one statement. */
interface Facts {
  placed: Array<ReturnType<typeof orderRow>>;
  statuses: Array<ReturnType<typeof statusRow>>;
  payments: Array<ReturnType<typeof paymentRow>>;
  refunds: Array<ReturnType<typeof refundRow>>;
}

/** An order as placed, with its lines (each with its part of a rental's first payment). */
function orderRow(data: Placed, occurredAt: string) {
  return {
    id: data.orderId,
    order_number: data.orderNumber,
    customer_id: data.customerId,
    customer_name: data.customer?.name ?? '',
    type: data.type,
    total_amount: data.totalAmount,
    partial_payment: data.partialPayment,
    placed_at: new Date(data.createdAt ?? occurredAt).toISOString(),
    lines: data.lines.map((l) => ({ ...l, firstDay: rentalFirstDay(data.type, l) })),
  };
}

/** A rental line's part of the first payment (terms `firstDayCents`); null on a purchase line. */
function rentalFirstDay(type: Placed['type'], l: Placed['lines'][number]): string | null {
  return type === 'RENT' ? centsToString(firstDayCents({ unitCents: toCents(l.unitPrice), quantity: l.quantity })) : null;
}

/**
 * A status change. A full-payment request keeps the due date and balance its event carries (an
 * older event without them: the due date of the terms rule for its time; the balance is then
 * computed at refresh).
 */
function statusRow(eventId: string, data: StatusChanged, occurredAt: string) {
  const asked = data.to === 'FOR_FULL_PAYMENT';
  return {
    event_id: eventId,
    order_id: data.orderId,
    from_status: data.from,
    to_status: data.to,
    extra_charge: asked ? (data.extraCharge ?? '0') : data.extraCharge,
    due_date: asked ? (data.fullPaymentDue ?? fullPaymentDueDate(new Date(occurredAt))) : null,
    balance: asked ? data.balance : null,
    occurred_at: new Date(occurredAt).toISOString(),
    late_fees: asked ? data.lateFees : null,
    late_fees_waived: asked ? data.lateFeesWaived : null,
    deposit_applied: asked ? data.depositApplied : null,
    deposit_refund: asked ? data.depositRefund : null,
  };
}

/** A payment taken (a purchase's, a rental's first or full one, each cycle of a rental billed by cycles). */
function paymentRow(data: Confirmed, version: number) {
  return {
    payment_id: data.paymentId,
    type: data.type,
    order_id: data.orderId,
    order_number: data.orderNumber,
    order_type: data.orderType,
    amount: data.amount,
    balance_after: data.balance,
    status_after: data.status,
    invoice_number: data.invoiceNumber,
    receipt_number: data.receiptNumber,
    confirmed_at: new Date(data.confirmedAt).toISOString(),
    accommodated_by: data.accommodatedBy,
    version,
    deposit: data.deposit,
    cycle: data.cycle ?? 0,
  };
}

/** A refund paid back (issue 29). */
function refundRow(data: RefundRecorded) {
  return {
    refund_id: data.refundId,
    payment_id: data.paymentId,
    order_id: data.orderId,
    order_number: data.orderNumber,
    number: data.number,
    kind: data.kind,
    method: data.method,
    amount: data.amount,
    refunded_at: new Date(data.refundedAt).toISOString(),
  };
}

/**
 * Writes a batch's facts, each at most once (a fact already held changes nothing): the orders
 * and, for the orders new here only, their lines; the status changes; the payments; the refunds.
 * One statement per kind present, however many events the batch has.
 */
async function insertFacts(db: Db, facts: Facts): Promise<void> {
  if (facts.placed.length > 0) {
    await sql(
      db,
      `with o as (
         select * from jsonb_to_recordset($1::jsonb) as x(id uuid, order_number text, customer_id uuid, customer_name text, type text,
           total_amount numeric(12,2), partial_payment numeric(12,2), placed_at timestamptz, lines jsonb)
       ), ins as (
         insert into ${qualified(db, 'orders')} (id, order_number, customer_id, customer_name, type, total_amount, partial_payment, placed_at)
         select id, order_number, customer_id, customer_name, type, total_amount, partial_payment, placed_at from o
         on conflict (id) do nothing returning id
       )
       insert into ${qualified(db, 'order_lines')} (order_id, line_no, product_id, variant_id, sub_variant_id, product_name, variant_name,
              sub_variant_name, quantity, no_of_rental_days, unit_price, line_total, first_day)
       select distinct on (ins.id, x.n) ins.id, x.n, (x.l->>'productId')::uuid, (x.l->>'variantId')::uuid, (x.l->>'subVariantId')::uuid,
              x.l->>'productName', x.l->>'variantName', x.l->>'subVariantName', (x.l->>'quantity')::int, (x.l->>'noOfRentalDays')::int,
              (x.l->>'unitPrice')::numeric(12,2), (x.l->>'lineTotal')::numeric(12,2), (x.l->>'firstDay')::numeric(12,2)
       from ins join o on o.id = ins.id cross join lateral jsonb_array_elements(o.lines) with ordinality as x(l, n)
       on conflict do nothing`,
      [JSON.stringify(facts.placed)],
    );
  }
  await insertRows(db, 'order_status_events', STATUS_EVENT_COLUMNS, facts.statuses);
  await insertRows(db, 'payments', PAYMENT_COLUMNS, facts.payments);
  await insertRows(db, 'refunds', REFUND_COLUMNS, facts.refunds);
}

/** Columns of a fact table with their types; a fact row's keys are these names. */
type Columns = ReadonlyArray<readonly [name: string, type: string]>;

const STATUS_EVENT_COLUMNS: Columns = [
  ['event_id', 'uuid'], ['order_id', 'uuid'], ['from_status', 'text'], ['to_status', 'text'], ['extra_charge', 'numeric(12,2)'],
  ['due_date', 'date'], ['balance', 'numeric(12,2)'], ['occurred_at', 'timestamptz'], ['late_fees', 'numeric(12,2)'],
  ['late_fees_waived', 'numeric(12,2)'], ['deposit_applied', 'numeric(12,2)'], ['deposit_refund', 'numeric(12,2)'],
];
const PAYMENT_COLUMNS: Columns = [
  ['payment_id', 'uuid'], ['type', 'text'], ['order_id', 'uuid'], ['order_number', 'text'], ['order_type', 'text'],
  ['amount', 'numeric(12,2)'], ['balance_after', 'numeric(12,2)'], ['status_after', 'text'], ['invoice_number', 'text'],
  ['receipt_number', 'text'], ['confirmed_at', 'timestamptz'], ['accommodated_by', 'uuid'], ['version', 'int'],
  ['deposit', 'numeric(12,2)'], ['cycle', 'int'],
];
const REFUND_COLUMNS: Columns = [
  ['refund_id', 'uuid'], ['payment_id', 'uuid'], ['order_id', 'uuid'], ['order_number', 'text'], ['number', 'text'],
  ['kind', 'text'], ['method', 'text'], ['amount', 'numeric(12,2)'], ['refunded_at', 'timestamptz'],
];

/** A batch of fact rows in one statement; a fact already recorded (a redelivered event) is skipped. */
async function insertRows(db: Db, table: string, columns: Columns, rows: unknown[]): Promise<void> {
  if (rows.length === 0) return;
  await sql(
    db,
    `insert into ${qualified(db, table)} (${columns.map(([name]) => name).join(', ')})
     select * from jsonb_to_recordset($1::jsonb) as x(${columns.map(([name, type]) => `${name} ${type}`).join(', ')})
     on conflict do nothing`,
    [JSON.stringify(rows)],
  );
}

/** An order's facts, as the refresh reads them (numbers and dates as text). */
interface OrderFactsRow {
  id: string;
  to_status: string | null;
  status_at: Date | null;
  full_asked_at: Date | null;
  extra_charge: string | null;
  due_date: string | null;
  balance: string | null;
  total_amount: string;
  partial_payment: string | null;
  first_paid_at: Date | null;
  full_paid_at: Date | null;
  deposit: string;
  late_fees: string | null;
  late_fees_waived: string | null;
  deposit_applied: string | null;
  deposit_refund: string | null;
  cancel_refunded: boolean;
}

/**
 * The derived columns of orders, from their facts: status = the newest status change (ties: the
 * later step of the process); the request of the full payment (time, and the extra charge, due
 * date and balance its event carried); first and full payment times; the payment status they
 * imply. The figures come from the terms module (contracts), never from SQL arithmetic.
 */
export async function refreshOrders(db: Db, orderIds: string[]): Promise<void> {
  const events = qualified(db, 'order_status_events');
  const facts = await sql<OrderFactsRow>(
    db,
    `select o.id, st.to_status, st.occurred_at as status_at, ff.occurred_at as full_asked_at, ff.extra_charge::text, ff.due_date::text,
            ff.balance::text, o.total_amount::text, o.partial_payment::text, pay.first_paid_at, pay.full_paid_at, pay.deposit::text,
            ff.late_fees::text, ff.late_fees_waived::text, ff.deposit_applied::text, ff.deposit_refund::text,
            exists (select 1 from ${qualified(db, 'refunds')} rf where rf.order_id = ids.id and rf.kind = 'CANCELLED') as cancel_refunded
     from unnest($1::uuid[]) as ids(id)
     join ${qualified(db, 'orders')} o on o.id = ids.id
     left join lateral (
       select e.to_status, e.occurred_at from ${events} e where e.order_id = ids.id
       order by e.occurred_at desc, array_position($2::text[], e.to_status::text) desc, e.event_id desc limit 1
     ) st on true
     left join lateral (
       select e.occurred_at, e.extra_charge, e.due_date, e.balance, e.late_fees, e.late_fees_waived, e.deposit_applied, e.deposit_refund
       from ${events} e where e.order_id = ids.id and e.to_status = 'FOR_FULL_PAYMENT'
       order by e.occurred_at desc, e.event_id desc limit 1
     ) ff on true
     left join lateral (
       select min(p.confirmed_at) as first_paid_at, max(p.confirmed_at) filter (where p.type = 'FULL') as full_paid_at, coalesce(sum(p.deposit), 0) as deposit
       from ${qualified(db, 'payments')} p where p.order_id = ids.id
     ) pay on true`,
    [orderIds, [...ORDER_STATUSES]],
  );
  if (facts.length === 0) return;
  await sql(
    db,
    `update ${qualified(db, 'orders')} o set status = d.status, status_at = d.status_at, full_asked_at = d.full_asked_at, extra_charge = d.extra_charge,
       full_due_date = d.full_due_date, full_balance = d.full_balance, first_paid_at = d.first_paid_at, full_paid_at = d.full_paid_at,
       payment_status = d.payment_status, deposit = d.deposit, late_fees = d.late_fees, late_fees_waived = d.late_fees_waived,
       deposit_applied = d.deposit_applied, deposit_refund = d.deposit_refund
     from jsonb_to_recordset($1::jsonb) as d(id uuid, status text, status_at timestamptz, full_asked_at timestamptz, extra_charge numeric,
       full_due_date date, full_balance numeric, first_paid_at timestamptz, full_paid_at timestamptz, payment_status text, deposit numeric,
       late_fees numeric, late_fees_waived numeric, deposit_applied numeric, deposit_refund numeric)
     where o.id = d.id
       -- The ids again as an array: the planner knows how many there are (it guesses 100 rows of
       -- any jsonb_to_recordset), so it reads them by the key rather than scanning every order.
       and o.id = any($2::uuid[])
       -- An order whose columns are already these is not written again (a batch of placed orders
       -- refreshes the rows it just inserted): no new row version, and no report day marked to fold.
       and (o.status, o.status_at, o.full_asked_at, o.extra_charge, o.full_due_date, o.full_balance, o.first_paid_at, o.full_paid_at,
            o.payment_status, o.deposit, o.late_fees, o.late_fees_waived, o.deposit_applied, o.deposit_refund)
           is distinct from
           (d.status, d.status_at, d.full_asked_at, d.extra_charge, d.full_due_date, d.full_balance, d.first_paid_at, d.full_paid_at,
            d.payment_status, d.deposit, d.late_fees, d.late_fees_waived, d.deposit_applied, d.deposit_refund)`,
    [JSON.stringify(facts.map(derivedColumns)), facts.map((f) => f.id)],
  );
}

/** One order's derived columns from its facts (terms: balance and payment status). */
function derivedColumns(f: OrderFactsRow) {
  const asked = f.full_asked_at !== null;
  const balance = !asked
    ? null
    : (f.balance ?? centsToString(balanceCents({ totalCents: toCents(f.total_amount), paidCents: toCents(f.partial_payment ?? '0'), extraCents: toCents(f.extra_charge ?? '0') })));
  return {
    id: f.id,
    status: f.to_status ?? 'PENDING',
    status_at: f.status_at,
    full_asked_at: f.full_asked_at,
    extra_charge: f.extra_charge,
    full_due_date: f.due_date,
    full_balance: balance,
    first_paid_at: f.first_paid_at,
    full_paid_at: f.full_paid_at,
    payment_status: paymentStatusOf({ firstPaidAt: f.first_paid_at, fullAskedAt: f.full_asked_at, fullPaidAt: f.full_paid_at, cancelled: f.to_status === 'CANCELLED', cancelRefunded: f.cancel_refunded }),
    deposit: f.deposit,
    late_fees: f.late_fees,
    late_fees_waived: f.late_fees_waived,
    deposit_applied: f.deposit_applied,
    deposit_refund: f.deposit_refund,
  };
}
