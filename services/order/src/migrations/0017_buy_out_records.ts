import { Migration } from '@dme/platform';

/** Rent-to-own (issue 29): the order's copy of its payment records takes a BUYOUT payment. */
export class OrderingBuyOutRecords extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."order_payment_records" drop constraint if exists "order_payment_records_type_check"`);
    this.addSql(`alter table "${s}"."order_payment_records" add constraint "order_payment_records_type_check" check ("type" in ('PARTIAL','FULL','CYCLE','BUYOUT'))`);
  }
}
