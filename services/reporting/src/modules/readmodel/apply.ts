import { EVENT_DATA, EVENTS, ORDER_STATUSES, type EventData, type EventEnvelope } from '@dme/contracts';
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
type Product = EventData<typeof EVENTS.catalog.productCreated>;

/** Subjects the reporting service listens to (nats-server 2.9: one filter per consumer). */
export const REPORTING_SUBJECTS = ['dme.catalog.>', 'dme.order.>', 'dme.payment.>'] as const;

/** Applies events (already deduplicated by the caller's inbox) in the caller's transaction. */
export async function applyReportingEvents(db: Db, events: readonly EventEnvelope[]): Promise<void> {
  await lockOrders(db, events);
  const touched = new Set<string>();
  for (const event of events) {
    switch (event.type) {
      case EVENTS.catalog.productCreated:
      case EVENTS.catalog.productUpdated:
        await upsertProduct(db, EVENT_DATA[EVENTS.catalog.productCreated].parse(event.data), event.version);
        break;
      case EVENTS.order.placed: {
        const data = EVENT_DATA[EVENTS.order.placed].parse(event.data);
        await insertOrder(db, data, event.occurredAt);
        touched.add(data.orderId);
        break;
      }
      case EVENTS.order.statusChanged: {
        const data = EVENT_DATA[EVENTS.order.statusChanged].parse(event.data);
        await insertStatusChange(db, event.id, data, event.occurredAt);
        touched.add(data.orderId);
        break;
      }
      case EVENTS.payment.confirmed: {
        const data = EVENT_DATA[EVENTS.payment.confirmed].parse(event.data);
        await insertPayment(db, data, event.version);
        touched.add(data.orderId);
        break;
      }
      default:
        break;
    }
  }
  if (touched.size > 0) await refreshOrders(db, [...touched]);
}

/**
 * The orders of the batch, locked for the rest of its transaction before any of their facts is
 * written: the consumers of order and payment events run side by side, and without the lock
 * each would recompute an order without the other's uncommitted fact (a payment lost under a
 * status change). Taken in one sorted pass, so two batches never wait on each other in a cycle.
 */
function lockOrders(db: Db, events: readonly EventEnvelope[]): Promise<void> {
  return lockEventOrders(db, 'reporting-order', events, [EVENTS.order.placed, EVENTS.order.statusChanged, EVENTS.payment.confirmed]);
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

/** The order and its lines, once (a second placed event of the same order changes nothing). */
async function insertOrder(db: Db, data: Placed, occurredAt: string): Promise<void> {
  const inserted = await sql<{ id: string }>(
    db,
    `insert into ${qualified(db, 'orders')} (id, order_number, customer_id, customer_name, type, total_amount, partial_payment, placed_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (id) do nothing returning id`,
    [data.orderId, data.orderNumber, data.customerId, data.customer?.name ?? '', data.type, data.totalAmount, data.partialPayment, new Date(data.createdAt ?? occurredAt)],
  );
  if (inserted.length === 0) return;
  await sql(
    db,
    `insert into ${qualified(db, 'order_lines')} (order_id, line_no, product_id, variant_id, sub_variant_id, product_name, variant_name,
            sub_variant_name, quantity, no_of_rental_days, unit_price, line_total)
     select $1, x.n, (x.l->>'productId')::uuid, (x.l->>'variantId')::uuid, (x.l->>'subVariantId')::uuid, x.l->>'productName',
            x.l->>'variantName', x.l->>'subVariantName', (x.l->>'quantity')::int, (x.l->>'noOfRentalDays')::int,
            (x.l->>'unitPrice')::numeric(12,2), (x.l->>'lineTotal')::numeric(12,2)
     from jsonb_array_elements($2::jsonb) with ordinality as x(l, n)
     on conflict do nothing`,
    [data.orderId, JSON.stringify(data.lines)],
  );
}

async function insertStatusChange(db: Db, eventId: string, data: StatusChanged, occurredAt: string): Promise<void> {
  await sql(
    db,
    `insert into ${qualified(db, 'order_status_events')} (event_id, order_id, from_status, to_status, extra_charge, occurred_at)
     values ($1, $2, $3, $4, $5, $6) on conflict do nothing`,
    [eventId, data.orderId, data.from, data.to, data.to === 'FOR_FULL_PAYMENT' ? (data.extraCharge ?? '0') : data.extraCharge, new Date(occurredAt)],
  );
}

/** One row per payment taken (a purchase's, a rental's first or full one), once. */
async function insertPayment(db: Db, data: Confirmed, version: number): Promise<void> {
  await sql(
    db,
    `insert into ${qualified(db, 'payments')} (payment_id, type, order_id, order_number, order_type, amount, balance_after, status_after,
            invoice_number, receipt_number, confirmed_at, accommodated_by, version)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) on conflict do nothing`,
    [
      data.paymentId,
      data.type,
      data.orderId,
      data.orderNumber,
      data.orderType,
      data.amount,
      data.balance,
      data.status,
      data.invoiceNumber,
      data.receiptNumber,
      new Date(data.confirmedAt),
      data.accommodatedBy,
      version,
    ],
  );
}

/**
 * The derived columns of orders, from their facts: status = the newest status change (ties: the
 * later step of the process); the request of the full payment (time, extra charge, due date = the
 * Manila day after); first and full payment times; the payment status they imply.
 */
export async function refreshOrders(db: Db, orderIds: string[]): Promise<void> {
  const events = qualified(db, 'order_status_events');
  await sql(
    db,
    `update ${qualified(db, 'orders')} o set
       status = coalesce(st.to_status, 'PENDING'),
       status_at = st.occurred_at,
       full_asked_at = ff.occurred_at,
       extra_charge = ff.extra_charge,
       full_due_date = (ff.occurred_at at time zone 'Asia/Manila')::date + 1,
       first_paid_at = pay.first_paid_at,
       full_paid_at = pay.full_paid_at,
       payment_status = case
         when pay.full_paid_at is not null then 'PAID'
         when ff.occurred_at is not null then 'FOR_FULL_PAYMENT'
         when pay.first_paid_at is not null then 'INITIAL_PAYMENT'
         when st.to_status = 'CANCELLED' then 'CANCELLED'
         else 'PENDING' end
     from unnest($1::uuid[]) as ids(id)
     left join lateral (
       select e.to_status, e.occurred_at from ${events} e where e.order_id = ids.id
       order by e.occurred_at desc, array_position($2::text[], e.to_status::text) desc, e.event_id desc limit 1
     ) st on true
     left join lateral (
       select e.occurred_at, e.extra_charge from ${events} e where e.order_id = ids.id and e.to_status = 'FOR_FULL_PAYMENT'
       order by e.occurred_at desc, e.event_id desc limit 1
     ) ff on true
     left join lateral (
       select min(p.confirmed_at) as first_paid_at, max(p.confirmed_at) filter (where p.type = 'FULL') as full_paid_at
       from ${qualified(db, 'payments')} p where p.order_id = ids.id
     ) pay on true
     where o.id = ids.id`,
    [orderIds, [...ORDER_STATUSES]],
  );
}
