/**
 * The order service's own housekeeping: its stored idempotent answers (and claims left
 * IN_PROGRESS by a crash) older than the TTL are deleted, in bounded batches (the platform's
 * implementation, shared with payments).
 */
export { purgeIdempotencyKeys, IDEMPOTENCY_TTL_HOURS } from '@dme/platform';
