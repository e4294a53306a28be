import { Migration } from '@dme/platform';

/**
 * The idempotency keys table takes the platform's layout (issue 9: checkout and payments share one
 * implementation, `@dme/platform` idempotency): a key belongs to whoever sent it, `owner_id`.
 */
export class OrderingIdempotencyOwner extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."idempotency_keys" rename column "customer_id" to "owner_id"`);
  }
}
