import { Migration } from '@dme/platform';

/** Rent-to-own (issue 29): a rental's BUYOUT payment is kept like the others. */
export class ReportingBuyOutPayments extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."payments" drop constraint if exists "payments_type_check"`);
    this.addSql(`alter table "${s}"."payments" add constraint "payments_type_check" check ("type" in ('PARTIAL','FULL','CYCLE','BUYOUT'))`);
  }
}
