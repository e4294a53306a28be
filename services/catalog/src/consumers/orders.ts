import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, EVENT_DATA, type EventEnvelope } from '@dme/contracts';
import { startConsumer, type Logger, type NatsConnection, type RunningConsumer } from '@dme/platform';
import { confirm, release } from '../modules/reservations/reservation.service';

/**
 * Order events keep reservations in step: placed → confirmed; cancelled, or a checkout abandoned
 * (stock reserved for an order the order service then could not write) → released. Releasing is
 * safe to repeat: only reservations still active are given back.
 */
export function handleOrderEvent(em: EntityManager, event: EventEnvelope): Promise<unknown> {
  if (event.type === EVENTS.order.placed) {
    const data = EVENT_DATA[EVENTS.order.placed].parse(event.data);
    return confirm(em, data.orderId);
  }
  if (event.type === EVENTS.order.statusChanged) {
    const data = EVENT_DATA[EVENTS.order.statusChanged].parse(event.data);
    if (data.to === 'CANCELLED') return release(em, data.orderId);
  }
  if (event.type === EVENTS.order.checkoutAbandoned) {
    const data = EVENT_DATA[EVENTS.order.checkoutAbandoned].parse(event.data);
    return release(em, data.orderId);
  }
  return Promise.resolve();
}

export function startOrderConsumer(opts: { nc: NatsConnection; em: EntityManager; logger: Logger; durable?: string }): Promise<RunningConsumer> {
  return startConsumer({
    ...opts,
    durable: opts.durable ?? 'catalog-orders',
    subjects: ['dme.order.>'],
    handle: async (em, event) => {
      await handleOrderEvent(em, event);
    },
  });
}
