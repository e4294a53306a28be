import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, EVENT_DATA, manilaDate, type EventEnvelope } from '@dme/contracts';
import { startConsumer, type ConnectionSource, type Db, type Logger, type NatsConnection, type RunningConsumer } from '@dme/platform';
import { confirmOrders, releaseOrders } from '../modules/reservations/reservation.service';
import { labelBookings, moveToDelivered } from '../modules/bookings/booking.service';

/**
 * Order events keep reservations in step: placed → confirmed; cancelled, or a checkout abandoned
 * (stock reserved for an order the order service then could not write) → released. Releasing is
 * safe to repeat: only reservations still active are given back.
 *
 * A batch of events is three statements at most, whatever its size (and a few per delivered
 * rental): every confirmation (and the order number and customer on the order's bookings), then every
 * release (an order placed and then cancelled in the same batch ends released, as one event after
 * the other would leave it). Other order events do not concern the catalog.
 */
export async function handleOrderEvents(db: Db, events: EventEnvelope[]): Promise<void> {
  const placed: string[] = [];
  const labels: Array<{ orderId: string; orderNumber: string; customerId: string; customerName: string | null }> = [];
  const released: string[] = [];
  const delivered: Array<{ orderId: string; day: string }> = [];
  for (const event of events) {
    if (event.type === EVENTS.order.placed) {
      const data = EVENT_DATA[EVENTS.order.placed].parse(event.data);
      placed.push(data.orderId);
      labels.push({ orderId: data.orderId, orderNumber: data.orderNumber, customerId: data.customerId, customerName: data.customer?.name ?? null });
    } else if (event.type === EVENTS.order.statusChanged) {
      const data = EVENT_DATA[EVENTS.order.statusChanged].parse(event.data);
      if (data.to === 'CANCELLED') released.push(data.orderId);
      // Delivered: the rental's days run from the delivered date (issue 25).
      if (data.to === 'DELIVERED' && data.type === 'RENT') delivered.push({ orderId: data.orderId, day: manilaDate(new Date(event.occurredAt)) });
    } else if (event.type === EVENTS.order.checkoutAbandoned) {
      released.push(EVENT_DATA[EVENTS.order.checkoutAbandoned].parse(event.data).orderId);
    }
  }
  await confirmOrders(db, placed);
  // The staff calendar names a rental's bookings by order number and customer (issue 25).
  await labelBookings(db, labels);
  await releaseOrders(db, released);
  for (const d of delivered) await moveToDelivered(db, d.orderId, d.day);
}

export function startOrderConsumer(opts: { nc: NatsConnection; em: EntityManager; logger: Logger; durable?: string; connections?: ConnectionSource }): Promise<RunningConsumer> {
  return startConsumer({
    ...opts,
    durable: opts.durable ?? 'catalog-orders',
    subjects: ['dme.order.>'],
    handleBatch: handleOrderEvents,
  });
}
