import { Migration } from '@dme/platform';

/**
 * Billing cycles (issue 29): how a rental's rent is billed (UPFRONT as SPEC §4, or CYCLES), the day
 * it was delivered (the first cycle's day), the last cycle paid; a CYCLE payment record carries its
 * cycle's number, once per payment (the unique index: a cycle is never charged twice, whatever
 * process dies when).
 */
export class PaymentCycles extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."payments" add column "billing" varchar(7) not null default 'UPFRONT' check ("billing" in ('UPFRONT','CYCLES'))`);
    this.addSql(`alter table "${s}"."payments" add column "delivered_on" date null`);
    this.addSql(`alter table "${s}"."payments" add column "last_cycle" int not null default 0 check ("last_cycle" >= 0)`);
    this.addSql(`alter table "${s}"."payments" drop constraint if exists "payments_type_check"`);
    this.addSql(`alter table "${s}"."payments" add constraint "payments_type_check" check ("type" in ('PARTIAL','FULL','CYCLE'))`);
    this.addSql(`alter table "${s}"."payment_records" drop constraint if exists "payment_records_type_check"`);
    this.addSql(`alter table "${s}"."payment_records" add constraint "payment_records_type_check" check ("type" in ('PARTIAL','FULL','CYCLE'))`);
    this.addSql(`alter table "${s}"."payment_records" add column "cycle" int null check (("type" = 'CYCLE') = ("cycle" is not null))`);
    this.addSql(`create unique index "payment_records_cycle_once" on "${s}"."payment_records" ("payment_id", "cycle") where "cycle" is not null`);
  }
}
