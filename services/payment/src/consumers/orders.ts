import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@dme/contracts';
import { startConsumer, type ConnectionSource, type Db, type Logger, type NatsConnection, type RunningConsumer } from '@dme/platform';
import { applyOrderEvents, lockOrders } from '../modules/payments/order-feed';

/** The durable consumer of order events shared by every replica of the payment service. */
export const ORDER_CONSUMER = 'payment-orders';

/**
 * Order events open and move payments (modules/payments/order-feed.ts): placed → a PENDING
 * payment; status changes → the order's status on it, cancellation (REFUND_DUE when a payment was
 * taken meanwhile), the full payment of a rental. A batch is applied in stream order in the consumer's transaction, with the inbox
 * records that make each event's effect happen once, its orders locked first.
 */
export function orderEventHandler(logger: Logger) {
  return async (db: Db, events: EventEnvelope[]): Promise<void> => {
    // Another replica may be handling events of the same orders right now (see lockOrders).
    await lockOrders(db, events);
    const outcomes = await applyOrderEvents(db, events);
    events.forEach((event, i) => {
      const outcome = outcomes[i];
      if (outcome === 'held') {
        logger.warn({ eventId: event.id, orderId: event.aggregateId }, 'payment: status event for an order not placed yet, held until it is');
      } else if (outcome === 'refund-due') {
        logger.warn({ eventId: event.id, orderId: event.aggregateId }, 'payment: the order was cancelled after a payment was taken; the payment is REFUND_DUE');
      } else if (outcome === 'duplicate') {
        logger.warn({ eventId: event.id, orderId: event.aggregateId }, 'payment: order placed again, its payment already exists');
      }
    });
  };
}

export function startOrderConsumer(opts: {
  nc: NatsConnection;
  em: EntityManager;
  logger: Logger;
  durable?: string;
  connections?: ConnectionSource;
  /** Called after a batch committed (kicks the outbox relay: a refund-due event may be waiting). */
  afterCommit?: () => void;
}): Promise<RunningConsumer> {
  return startConsumer({
    nc: opts.nc,
    em: opts.em,
    logger: opts.logger,
    durable: opts.durable ?? ORDER_CONSUMER,
    subjects: ['dme.order.>'],
    handleBatch: orderEventHandler(opts.logger),
    ...(opts.connections ? { connections: opts.connections } : {}),
    ...(opts.afterCommit ? { afterCommit: opts.afterCommit } : {}),
  });
}
