import { Migration } from '@dme/platform';

/**
 * Rent-to-own (issue 29): a BUYOUT payment record, and whether a rental became the customer's
 * (bought out, or by its paid cycles) — its rent then ends with what was paid, its deposit refunded whole.
 */
export class PaymentBuyOut extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."payments" add column "owned" boolean not null default false`);
    this.addSql(`alter table "${s}"."payments" drop constraint if exists "payments_type_check"`);
    this.addSql(`alter table "${s}"."payments" add constraint "payments_type_check" check ("type" in ('PARTIAL','FULL','CYCLE','BUYOUT'))`);
    this.addSql(`alter table "${s}"."payment_records" drop constraint if exists "payment_records_type_check"`);
    this.addSql(`alter table "${s}"."payment_records" add constraint "payment_records_type_check" check ("type" in ('PARTIAL','FULL','CYCLE','BUYOUT'))`);
  }
}
