import { Migration } from '@dme/platform';

/**
 * Issue 30: a checkout's order id is derived from its customer, Idempotency-Key and lines, so a
 * retry reserves under the same id. The ids a key has been spent on are kept here: an order
 * written under it (PLACED), or an attempt given up after its reservation (ABANDONED: its release
 * may still be on its way to the catalog). The next checkout with the key takes the next id.
 */
export class OrderingCheckoutAttempts extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table "${s}"."checkout_attempts" (
      "order_id" uuid primary key,
      "customer_id" uuid not null,
      "key" varchar(200) not null,
      "outcome" varchar(12) not null check ("outcome" in ('PLACED','ABANDONED')),
      "created_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "checkout_attempts_customer_key_idx" on "${s}"."checkout_attempts" ("customer_id", "key")`);
  }
}
