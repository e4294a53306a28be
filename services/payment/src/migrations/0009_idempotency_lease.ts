import { Migration } from '@dme/platform';

/**
 * Issue 30: an Idempotency-Key's claim is a short lease renewed by the process whose request holds
 * it (platform idempotency.ts, holdClaim): when it was last renewed. (A table made since by
 * idempotencyTableSql already has the column.)
 */
export class PaymentIdempotencyLease extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "${this.config.get('schema')}"."idempotency_keys" add column if not exists "renewed_at" timestamptz null`);
  }
}
