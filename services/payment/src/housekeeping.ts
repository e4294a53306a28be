import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteInBatches, purgeIdempotencyKeys, qualified } from '@dme/platform';

/** Status events held for an order that never arrived are dropped after this many days. */
export const EARLY_EVENT_DAYS = 30;

/**
 * The payment service's own housekeeping: stored idempotent answers (and claims a crash left
 * IN_PROGRESS) older than the TTL, and status events held back for orders whose placed event
 * never came, in bounded batches.
 */
export async function purgePaymentHousekeeping(em: EntityManager): Promise<{ idempotencyKeys: number; earlyEvents: number }> {
  const idempotencyKeys = await purgeIdempotencyKeys(em);
  const earlyEvents = await deleteInBatches(em, qualified(em, 'early_order_events'), `received_at < now() - make_interval(days => ?)`, [EARLY_EVENT_DAYS]);
  return { idempotencyKeys, earlyEvents };
}
