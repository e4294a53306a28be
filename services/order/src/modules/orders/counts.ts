import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrderStatus, OrderType } from '@dme/contracts';
import { foldKeptCounts, keptCounts, readKeptCounts, startKeptCountFold, type KeptCounts, type Logger, type PollingLoop } from '@dme/platform';

/** The staff's order tabs: orders per type and status, kept by the orders table's triggers (migration 0020, platform kept-counts). */
export const ORDER_COUNTS: KeptCounts = keptCounts({ table: 'orders', name: 'order', keys: { type: 'varchar(4)', status: 'varchar(20)' } });

/**
 * The ongoing rentals' Picked up tab (rentals whose payment is PAID): the payment mirrors per order
 * type and status, kept by the order_payments table's triggers (migration 0023).
 */
export const ORDER_PAYMENT_COUNTS: KeptCounts = keptCounts({ table: 'order_payments', name: 'order_payment', keys: { order_type: 'varchar(4)', status: 'varchar(20)' }, id: 'order_id' });

/**
 * How many orders each status holds (of one type, or of all), from the kept counts: exact at the
 * moment of the read. Statuses holding none are left out.
 */
export async function statusCounts(em: EntityManager, type?: OrderType): Promise<Partial<Record<OrderStatus, number>>> {
  return (await readKeptCounts(em, ORDER_COUNTS, { type })) as Partial<Record<OrderStatus, number>>;
}

/** Folds the counts' changes into their rows (one replica at a time); answers how many were folded. */
export function foldOrderCounts(em: EntityManager): Promise<number> {
  return foldKeptCounts(em, ORDER_COUNTS);
}

/** Folds the counts' changes every few seconds (every replica runs it; one folds at a time): the orders' and the payment mirrors'. */
export function startOrderCountFolds(opts: { em: EntityManager; logger: Logger; everyMs?: number }): PollingLoop[] {
  return [startKeptCountFold({ ...opts, counts: ORDER_COUNTS }), startKeptCountFold({ ...opts, counts: ORDER_PAYMENT_COUNTS })];
}
