import { Migration } from '@dme/platform';

/**
 * The rental money the events carry (issue 29), for the deposits, late fees, refunds and
 * receivables reports: a first payment's deposit; a full-payment request's late fees (charged and
 * waived) and the deposit's settlement (applied, to refund), on its status event and on the order
 * (refreshed from the newest request, like its extra charge); refunds paid back, one row each.
 * Older rows have none (0 or null): they had no deposit, late fee or refund.
 */
export class ReportingRentalMoney extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."payments" add column "deposit" numeric(12,2) not null default 0`);
    this.addSql(`alter table "${s}"."order_status_events" add column "late_fees" numeric(12,2) null, add column "late_fees_waived" numeric(12,2) null,
      add column "deposit_applied" numeric(12,2) null, add column "deposit_refund" numeric(12,2) null`);
    this.addSql(`alter table "${s}"."orders" add column "deposit" numeric(12,2) not null default 0, add column "late_fees" numeric(12,2) null,
      add column "late_fees_waived" numeric(12,2) null, add column "deposit_applied" numeric(12,2) null, add column "deposit_refund" numeric(12,2) null`);
    this.addSql(`create table "${s}"."refunds" (
      "refund_id" uuid primary key,
      "payment_id" uuid not null,
      "order_id" uuid not null,
      "order_number" varchar(30) not null,
      "number" varchar(30) not null,
      "kind" varchar(20) not null,
      "method" varchar(20) not null,
      "amount" numeric(12,2) not null,
      "refunded_at" timestamptz not null
    )`);
    this.addSql(`create index "refunds_report_idx" on "${s}"."refunds" ("refunded_at", "refund_id")`);
    // Deposits by the first payment's time; late fees and receivables by the full payment's request.
    this.addSql(`create index "payments_deposit_idx" on "${s}"."payments" ("confirmed_at", "payment_id") where "deposit" > 0`);
    this.addSql(`create index "orders_rent_asked_all_idx" on "${s}"."orders" ("full_asked_at", "id") where "type" = 'RENT'`);
  }
}
