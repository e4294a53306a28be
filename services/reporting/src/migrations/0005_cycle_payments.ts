import { Migration } from '@dme/platform';

/**
 * Billing cycles (issue 29): a rental's CYCLE payments are kept one row per cycle (0 for the
 * first and full payments, which stay one per payment and type).
 */
export class ReportingCyclePayments extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."payments" add column "cycle" int not null default 0`);
    this.addSql(`alter table "${s}"."payments" drop constraint if exists "payments_type_check"`);
    this.addSql(`alter table "${s}"."payments" add constraint "payments_type_check" check ("type" in ('PARTIAL','FULL','CYCLE'))`);
    this.addSql(`alter table "${s}"."payments" drop constraint "payments_pkey"`);
    this.addSql(`alter table "${s}"."payments" add primary key ("payment_id", "type", "cycle")`);
  }
}
