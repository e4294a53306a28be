import { Migration } from '@dme/platform';

/**
 * Billing cycles (issue 29): the order's copy of its payment records takes CYCLE payments, one per
 * cycle number (a PARTIAL or FULL record stays once per order, as before).
 */
export class OrderingCycleRecords extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."order_payment_records" add column "cycle" int null`);
    this.addSql(`alter table "${s}"."order_payment_records" drop constraint if exists "order_payment_records_type_check"`);
    this.addSql(`alter table "${s}"."order_payment_records" add constraint "order_payment_records_type_check" check ("type" in ('PARTIAL','FULL','CYCLE'))`);
    this.addSql(`alter table "${s}"."order_payment_records" drop constraint if exists "order_payment_records_order_id_type_key"`);
    this.addSql(`create unique index "order_payment_records_once" on "${s}"."order_payment_records" ("order_id", "type", coalesce("cycle", 0))`);
  }
}
