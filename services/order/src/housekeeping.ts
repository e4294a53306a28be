import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteInBatches, qualified } from '@dme/platform';

/** How long a stored answer to an Idempotency-Key is kept (a retry after that places a new order). */
export const IDEMPOTENCY_TTL_HOURS = 24;

/**
 * The order service's own housekeeping: stored idempotent answers (and claims left IN_PROGRESS by
 * a crash) older than the TTL are deleted, in bounded batches.
 */
export async function purgeIdempotencyKeys(em: EntityManager, hours = IDEMPOTENCY_TTL_HOURS): Promise<number> {
  return deleteInBatches(em, qualified(em, 'idempotency_keys'), `created_at < now() - make_interval(hours => ?)`, [hours]);
}
