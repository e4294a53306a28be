import type { EntityManager } from '@mikro-orm/postgresql';
import { completedByOwnership, EVENTS, EVENT_DATA, manilaDate, OWNERSHIP_TRIGGER, STOCK_STATUS_INVENTORY, type CustodyKind, type EventData, type EventEnvelope, type OrderStatus } from '@dme/contracts';
import { qualified, sql, startConsumer, type ConnectionSource, type Db, type Logger, type NatsConnection, type RunningConsumer } from '@dme/platform';
import { confirmOrders, releaseOrders } from '../modules/reservations/reservation.service';
import { labelBookings, moveToDelivered } from '../modules/bookings/booking.service';
import { endBookingsOwned } from '../modules/bookings/extend';
import { appendCustody, rememberOrders } from '../modules/custody/custody';
import { moveStockItems } from '../modules/stock/stock-moves';

/**
 * Order events keep reservations in step: placed → confirmed; cancelled, or a checkout abandoned
 * (stock reserved for an order the order service then could not write) → released. Releasing is
 * safe to repeat: only reservations still active are given back.
 *
 * A batch of events is three statements at most, whatever its size (and a few per delivered
 * rental): every confirmation (and the order number and customer on the order's bookings), then every
 * release (an order placed and then cancelled in the same batch ends released, as one event after
 * the other would leave it). A rental that became the customer's (rent-to-own, issue 29) has its
 * units out on it SOLD and its bookings ended. Other order events do not concern the catalog.
 */
export async function handleOrderEvents(db: Db, events: EventEnvelope[]): Promise<void> {
  const placed: string[] = [];
  const labels: Array<{ orderId: string; orderNumber: string; customerId: string; customerName: string | null }> = [];
  const released: string[] = [];
  const delivered: Array<{ orderId: string; day: string }> = [];
  const orders: Array<{ orderId: string; orderNumber: string; type: string; customerId: string; customerName: string | null }> = [];
  const handovers: Array<{ event: EventEnvelope; data: StatusChanged }> = [];
  const owned: Array<{ event: EventEnvelope; data: StatusChanged }> = [];
  for (const event of events) {
    if (event.type === EVENTS.order.placed) {
      const data = EVENT_DATA[EVENTS.order.placed].parse(event.data);
      placed.push(data.orderId);
      labels.push({ orderId: data.orderId, orderNumber: data.orderNumber, customerId: data.customerId, customerName: data.customer?.name ?? null });
      orders.push({ orderId: data.orderId, orderNumber: data.orderNumber, type: data.type, customerId: data.customerId, customerName: data.customer?.name ?? null });
    } else if (event.type === EVENTS.order.statusChanged) {
      const data = EVENT_DATA[EVENTS.order.statusChanged].parse(event.data);
      if (data.to === 'CANCELLED') released.push(data.orderId);
      // Delivered: the rental's days run from the delivered date (issue 25).
      if (data.to === 'DELIVERED' && data.type === 'RENT') delivered.push({ orderId: data.orderId, day: manilaDate(new Date(event.occurredAt)) });
      if (HANDOVER[data.to]) handovers.push({ event, data });
      // Rent-to-own: DELIVERED / FOR_RETURN → COMPLETED (a normal rental completes from FOR_FULL_PAYMENT, its units back).
      if (completedByOwnership(data.type, data.from, data.to)) owned.push({ event, data });
    } else if (event.type === EVENTS.order.checkoutAbandoned) {
      released.push(EVENT_DATA[EVENTS.order.checkoutAbandoned].parse(event.data).orderId);
    }
  }
  await confirmOrders(db, placed);
  // The staff calendar names a rental's bookings by order number and customer (issue 25).
  await labelBookings(db, labels);
  // A unit's chain of custody names its order and customer (issue 26).
  await rememberOrders(db, orders);
  // The units a rental booked at checkout are reserved for it, in their histories (once per event).
  for (const e of events) if (e.type === EVENTS.order.placed) await recordReserved(db, e);
  await releaseOrders(db, released);
  for (const d of delivered) await moveToDelivered(db, d.orderId, d.day);
  for (const h of handovers) await recordHandover(db, h.event, h.data);
  for (const o of owned) await recordOwnership(db, o.event, o.data);
}

type StatusChanged = EventData<typeof EVENTS.order.statusChanged>;

/** A placed rental's booked units get RESERVED in their chain of custody, at the order's time (issue 26). */
async function recordReserved(db: Db, event: EventEnvelope): Promise<void> {
  const data = EVENT_DATA[EVENTS.order.placed].parse(event.data);
  if (data.type !== 'RENT') return;
  const units = await sql<{ id: string }>(db, `select distinct stock_item_id as id from ${qualified(db, 'bookings')} where order_id = $1 and kind = 'RENTAL' and status in ('ACTIVE')`, [data.orderId]);
  await appendCustody(
    db,
    units.map((u) => u.id),
    { kind: 'RESERVED', orderId: data.orderId, party: { customerOf: 'order' }, at: event.occurredAt, sourceEventId: event.id },
  );
}

/** The order steps that hand a unit from one party to another, as its chain of custody writes them (issue 26). */
const HANDOVER: Partial<Record<OrderStatus, { kind: CustodyKind; party: 'driver' | 'customer' }>> = {
  OUT_FOR_DELIVERY: { kind: 'OUT_FOR_DELIVERY', party: 'driver' },
  DELIVERED: { kind: 'DELIVERED', party: 'customer' },
  FOR_PICK_UP: { kind: 'PICKED_UP', party: 'driver' },
};

/**
 * A driver's scan moved an order's units between hands: each unit that was out on the order at
 * the event's time gets the entry, at that time, once per event whatever the redeliveries. Out
 * then: still out on it now, or returned from it after that time — the return is marked straight
 * at the catalog while the hand-over's event may still be on its way (a busy moment), and the
 * pick-up happened all the same. A unit returned before it (a replaced one) was not handed over.
 */
async function recordHandover(db: Db, event: EventEnvelope, data: StatusChanged): Promise<void> {
  const step = HANDOVER[data.to]!;
  const units = await sql<{ id: string }>(
    db,
    `select id from ${qualified(db, 'stock_items')} where order_id = $1 and status in ('RENTED','SOLD')
     union
     select stock_item_id from ${qualified(db, 'custody_events')} where order_id = $1 and kind = 'RETURNED' and at > $2::timestamptz`,
    [data.orderId, event.occurredAt],
  );
  await appendCustody(
    db,
    units.map((u) => u.id),
    {
      kind: step.kind,
      by: { userId: data.by, name: data.byName },
      orderId: data.orderId,
      party: step.party === 'customer' ? { customerOf: 'order' } : data.byName,
      at: event.occurredAt,
      sourceEventId: event.id,
    },
  );
}

/**
 * A rental became the customer's (rent-to-own, issue 29: bought out, or its billing cycles paid):
 * each unit still RENTED on the order moves to SOLD through the status table (the ledger's trigger
 * counts it sold, not rented), with the BOUGHT_OUT custody entry naming the customer at the
 * event's time; the order's bookings end on the event's Manila day with no turnaround (the units
 * will not come back). Once per event whatever the redeliveries: a unit moved is no longer
 * RENTED, the bookings only shorten to an absolute day.
 */
async function recordOwnership(db: Db, event: EventEnvelope, data: StatusChanged): Promise<void> {
  const units = await sql<{ id: string }>(
    db,
    `select id from ${qualified(db, 'stock_items')} where order_id = $1 and status in ('RENTED') and inventory_type = $2 order by id for update`,
    [data.orderId, STOCK_STATUS_INVENTORY.RENTED],
  );
  await moveStockItems(
    db,
    OWNERSHIP_TRIGGER,
    units.map((u) => u.id),
    {
      custody: {
        by: { userId: data.by, name: data.byName },
        orderId: data.orderId,
        party: { customerOf: 'order' },
        at: event.occurredAt,
        sourceEventId: event.id,
      },
    },
  );
  await endBookingsOwned(db, data.orderId, manilaDate(new Date(event.occurredAt)));
}

export function startOrderConsumer(opts: { nc: NatsConnection; em: EntityManager; logger: Logger; durable?: string; connections?: ConnectionSource }): Promise<RunningConsumer> {
  return startConsumer({
    ...opts,
    durable: opts.durable ?? 'catalog-orders',
    subjects: ['dme.order.>'],
    handleBatch: handleOrderEvents,
  });
}
