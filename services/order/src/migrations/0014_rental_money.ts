import { Migration } from '@dme/platform';

/**
 * Rental money (issue 29): each rental line keeps the terms it was placed with (contracts
 * `RentalTermsSchema`'s wire form; null: none) and its deposit; the order keeps its deposit (taken
 * with the first payment) and, once its full payment is asked for, the late fees within its extra
 * charge and the deposit's settlement (taken for the charges, refunded).
 */
export class OrderingRentalMoney extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."order_lines"
      add column "rental_terms" jsonb null,
      add column "deposit" numeric(12,2) not null default 0 check ("deposit" >= 0)`);
    this.addSql(`alter table "${s}"."orders"
      add column "deposit" numeric(12,2) not null default 0 check ("deposit" >= 0),
      add column "late_fees" numeric(12,2) null check ("late_fees" >= 0),
      add column "deposit_applied" numeric(12,2) null check ("deposit_applied" >= 0),
      add column "deposit_refund" numeric(12,2) null check ("deposit_refund" >= 0)`);
    // Refunds paid back (from dme.payment.refund_recorded), for the order's display.
    this.addSql(`create table "${s}"."order_refunds" (
      "refund_id" uuid primary key,
      "order_id" uuid not null,
      "number" varchar(30) not null,
      "kind" varchar(12) not null,
      "amount" numeric(12,2) not null,
      "method" varchar(20) not null,
      "refunded_at" timestamptz not null
    )`);
    this.addSql(`create index "order_refunds_order_idx" on "${s}"."order_refunds" ("order_id")`);
    // Late fees waived by staff, with the reason, who and when.
    this.addSql(`create table "${s}"."order_late_fee_waivers" (
      "id" uuid primary key,
      "order_id" uuid not null references "${s}"."orders" ("id") on delete cascade,
      "amount" numeric(12,2) not null check ("amount" > 0),
      "reason" text not null,
      "by_id" uuid not null,
      "by_name" text not null,
      "created_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "order_late_fee_waivers_order_idx" on "${s}"."order_late_fee_waivers" ("order_id", "created_at")`);
  }
}
